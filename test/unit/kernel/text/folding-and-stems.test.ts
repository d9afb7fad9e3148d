/** Folding, cutting and stemming a text (services/kernel/text/words.ts): the analysis both the indexer and the query side use. */
import { foldWord, indexedText, stemOf, typedLength, wordsOf } from '../../../../services/kernel/text/words';

describe('foldWord', () => {
  it('lowercases and removes accents', () => {
    expect(foldWord('Café')).toBe('cafe');
    expect(foldWord('NAÏVE')).toBe('naive');
    // The same word in decomposed form (e + combining acute accent) folds alike.
    expect(foldWord('Cafe\u0301')).toBe('cafe');
    expect(foldWord('Straße')).toBe('strasse');
    expect(foldWord('İstanbul')).toBe('istanbul');
  });
});

describe('wordsOf', () => {
  it('cuts runs of letters and digits, with their offsets in the original text', () => {
    const text = "Tenant's café: Wi-Fi, w/d (2BR) on the 10th floor";
    const words = wordsOf(text);
    expect(words.map((w) => w.word)).toEqual(['tenants', 'cafe', 'wi', 'fi', 'w', 'd', '2br', 'on', 'the', '10th', 'floor']);
    for (const w of words) expect(foldWord(text.slice(w.start, w.end)).replace(/'/g, '')).toBe(w.word);
  });

  it('drops an apostrophe inside a word only, typographic ones included', () => {
    expect(wordsOf("residents’ lounge, tenant’s, 'quoted'").map((w) => w.word)).toEqual(['residents', 'lounge', 'tenants', 'quoted']);
  });

  it('finds no word in punctuation and space', () => {
    expect(wordsOf('  -- / *:() "" \\ ')).toEqual([]);
    expect(wordsOf('')).toEqual([]);
  });
});

describe('stemOf', () => {
  it('gives plurals and other endings the stem of the word', () => {
    expect(stemOf('pools')).toBe(stemOf('pool'));
    expect(stemOf(foldWord('Pools'))).toBe('pool');
    expect(stemOf('balconies')).toBe(stemOf('balcony'));
    expect(stemOf('furnished')).toBe(stemOf('furnish'));
  });

  it('stems "coworking" to "cowork" while the word stays whole', () => {
    expect(stemOf('coworking')).toBe('cowork');
    expect(indexedText('Coworking space')).toEqual({ words: 'coworking space', stems: 'cowork space' });
  });

  it('keeps words with digits as they are', () => {
    for (const w of ['2br', '10th', '3br', '300', '13th', '3rd']) expect(stemOf(w)).toBe(w);
  });
});

describe('indexedText', () => {
  it('writes the folded words and their stems in order, one space apart', () => {
    expect(indexedText('Heated Pools & Café, 24-hour fitness center')).toEqual({
      words: 'heated pools cafe 24 hour fitness center',
      stems: 'heat pool cafe 24 hour fit center',
    });
    expect(indexedText('')).toEqual({ words: '', stems: '' });
  });

  it('never writes a token holding whitespace or nothing', () => {
    const { words, stems } = indexedText('½ ﬁve\u00a0rooms\tand\u2003more');
    expect(words.split(' ').every((w) => /^[\p{L}\p{N}]+$/u.test(w))).toBe(true);
    expect(stems.split(' ')).toHaveLength(words.split(' ').length);
  });
});

describe('typedLength', () => {
  it('counts the letters and digits typed, not accents or punctuation', () => {
    expect(typedLength('Cafe\u0301')).toBe(4);
    expect(typedLength("tenant's")).toBe(7);
    expect(typedLength('10th')).toBe(4);
  });
});
