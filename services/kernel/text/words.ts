/**
 * The words of a text as word search sees them, on both sides of the index: the indexer writes
 * indexedText's two strings into fields with Elasticsearch's `whitespace` analyzer, and the query
 * side (query-plan.ts) and the highlighter (matched.ts) cut q and the stored texts with the same
 * wordsOf. Elasticsearch here has core analysis only (no stemmer, no folding), so all of it is here.
 *
 * A word is a run of letters and digits; any other character separates words, so "Wi-Fi" is "wi fi"
 * and "w/d" is "w d". An apostrophe between two letters or digits is dropped ("tenant's" is
 * "tenants"), so the possessive stems like the plural. Folding lowercases and removes accents, so
 * "Café" is "cafe". The stem is Porter2's (the Snowball English stemmer, from wink-porter2-stemmer):
 * "pools" and "Pool" share the stem "pool", "Coworking" and "cowork" share "cowork". The indexer's
 * stems and the query's must come from the same stemmer: changing it asks for a reindex.
 */
import stem from 'wink-porter2-stemmer';

/** Letters that Unicode decomposition leaves whole, written as the Latin letters a reader types for them. */
const LETTERS_WITHOUT_DECOMPOSITION: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

const COMBINING_MARKS = /\p{M}/gu;
const UNDECOMPOSED = /[ßæœøłđðþı]/g;
const NOT_WORD_CHARACTER = /[^\p{L}\p{N}]/gu;
/**
 * One word of a text: letters and digits (with the combining marks of text in decomposed form),
 * possibly joined by single apostrophes (ASCII ' and typographic ’ or ʼ) between them.
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’ʼ][\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*/gu;

const NON_ASCII = /[^ -~]/;

/** Lowercased, accents folded (NFKD, combining marks removed), e.g. "Café" -> "cafe". */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  // Printable ASCII has nothing to decompose or fold: most words of an English inventory.
  if (!NON_ASCII.test(lower)) return lower;
  return lower
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(UNDECOMPOSED, (c) => LETTERS_WITHOUT_DECOMPOSITION[c] ?? c);
}

/** One word of a text: folded, with the offsets (UTF-16 code units) of its span in the original text. */
export interface TextWord {
  word: string;
  start: number;
  end: number;
}

/** The words of a text with their offsets in the original string (letters and digits runs; apostrophes inside words dropped: "tenant's" -> "tenants"); `word` is folded. */
export function wordsOf(text: string): TextWord[] {
  const words: TextWord[] = [];
  for (const m of text.matchAll(WORD)) {
    // Decomposition can yield a non-letter ("½" is "1⁄2"): the word keeps its letters and digits only,
    // so a word is never empty and never holds the whitespace the index splits on.
    const word = foldWord(m[0]).replace(NOT_WORD_CHARACTER, '');
    if (word !== '') words.push({ word, start: m.index, end: m.index + m[0].length });
  }
  return words;
}

/** How many letters and digits a span of text holds, as the user typed it (the typo budget counts these). */
export function typedLength(span: string): number {
  let n = 0;
  for (const c of span) if (/[\p{L}\p{N}]/u.test(c)) n += 1;
  return n;
}

const DIGIT = /\p{N}/u;

/**
 * The English stem of a folded word. A word with a digit in it ("2br", "10th", "300") is its own stem:
 * suffixes of numbers mean nothing to a stemmer, and wink-porter2-stemmer uses the digit 3 as an inner
 * marker (it would give "ybr" for "3br").
 */
export function stemOf(word: string): string {
  if (DIGIT.test(word)) return word;
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= KEPT) stems.clear();
    s = stem(word);
    stems.set(word, s);
  }
  return s;
}

/**
 * Stems and analysed texts are kept, a bounded number of each: an inventory's vocabulary is a few
 * thousand words, and its texts repeat (every unit of a building has the building's texts, every home
 * the same few dozen amenities), so a rebuild analyses each once rather than once per home.
 */
const KEPT = 50_000;
const stems = new Map<string, string>();
const analysed = new Map<string, { words: string; stems: string }>();

/** What the indexer writes for a text: two whitespace-joined strings, the folded words and their stems, in order. */
export function indexedText(text: string): { words: string; stems: string } {
  let kept = analysed.get(text);
  if (kept === undefined) {
    const words = wordsOf(text).map((w) => w.word);
    kept = { words: words.join(' '), stems: words.map(stemOf).join(' ') };
    if (analysed.size >= KEPT) analysed.clear();
    analysed.set(text, kept);
  }
  return kept;
}

const split = new Map<string, { words: TextWord[]; stems: string[] }>();

/**
 * A text's words (wordsOf) and their stems, kept like the analysed texts: the highlighter reads the
 * same texts answer after answer (a building's, in every unit). The arrays are shared: read them only.
 */
export function textWords(text: string): { words: readonly TextWord[]; stems: readonly string[] } {
  let kept = split.get(text);
  if (kept === undefined) {
    const words = wordsOf(text);
    kept = { words, stems: words.map((w) => stemOf(w.word)) };
    if (split.size >= KEPT) split.clear();
    split.set(text, kept);
  }
  return kept;
}
