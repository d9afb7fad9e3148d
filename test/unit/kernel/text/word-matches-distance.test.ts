/**
 * wordMatches (services/kernel/text/matched.ts) decides a word as Elasticsearch decides the clauses
 * the search sends for a term: same stem, or within the term's fuzziness as Lucene's FuzzyQuery
 * with prefix_length 1 and transpositions (first code point kept, optimal-string-alignment distance
 * of the rest), or starting with a prefix term's word. Here the distance is found by trying every
 * alignment, and compared with the module's on random words.
 */
import fc from 'fast-check';
import { wordMatches } from '../../../../services/kernel/text/matched';
import type { QueryTerm } from '../../../../services/kernel/text/query-plan';
import { stemOf } from '../../../../services/kernel/text/words';
import { runs } from '../../../support/property-runs';

/**
 * Whether `a` can be turned into `b` with at most `edits` operations, trying every alignment from the
 * left: keep an equal character, substitute, delete, insert, or swap two neighbours, and never touch a
 * character twice (optimal string alignment: "ca" to "abc" takes 3, not 2).
 */
function within(a: readonly string[], b: readonly string[], edits: number): boolean {
  if (edits < 0) return false;
  if (a.length === 0 || b.length === 0) return Math.max(a.length, b.length) <= edits;
  const [ra, rb] = [a.slice(1), b.slice(1)];
  return (
    (a[0] === b[0] && within(ra, rb, edits)) ||
    within(ra, rb, edits - 1) ||
    within(ra, b, edits - 1) ||
    within(a, rb, edits - 1) ||
    (a.length > 1 && b.length > 1 && a[0] === b[1] && a[1] === b[0] && within(a.slice(2), b.slice(2), edits - 1))
  );
}

function bruteForce(word: string, term: QueryTerm): boolean {
  if (stemOf(word) === term.stem) return true;
  if (term.prefix && word.startsWith(term.word)) return true;
  // Lucene asks for the exact term when the term is no longer than the prefix (its UTF-16 length).
  if (term.fuzziness === 0 || term.word.length <= 1) return word === term.word;
  const [w, t] = [Array.from(word), Array.from(term.word)];
  return w[0] === t[0] && within(w.slice(1), t.slice(1), term.fuzziness);
}

const term = (word: string, fuzziness: 0 | 1 | 2, prefix = false): QueryTerm => ({ word, stem: stemOf(word), fuzziness, prefix });

describe('wordMatches', () => {
  it('follows the examples of the feature', () => {
    expect(wordMatches('pool', term('pools', 1))).toBe(true);
    expect(wordMatches('pool', term('pools', 0))).toBe(true); // by stem
    expect(wordMatches('apartments', term('apartmnets', 2))).toBe(true); // one swap
    expect(wordMatches('apartments', term('aprtmnets', 2))).toBe(true);
    expect(wordMatches('apartments', term('aprtmnts', 2))).toBe(true); // two deletions
    expect(wordMatches('apartments', term('aprtmnt', 2))).toBe(false); // three
    expect(wordMatches('sauna', term('tauna', 1))).toBe(false); // never on the first letter
    expect(wordMatches('coworking', term('cowork', 1, true))).toBe(true);
    expect(wordMatches('coworking', term('cowo', 0, false))).toBe(false);
    expect(wordMatches('coworking', term('cowo', 0, true))).toBe(true);
  });

  it('counts a swap inside an edited part as more than one edit (optimal string alignment)', () => {
    // After the kept first letter: "ab" and "bca" are 3 apart under OSA (2 with unrestricted Damerau).
    expect(wordMatches('xab', { word: 'xbca', stem: 'none', fuzziness: 2, prefix: false })).toBe(false);
    expect(within(['c', 'a'], ['a', 'b', 'c'], 2)).toBe(false);
  });

  it('agrees with a brute-force distance on random words', () => {
    // A small alphabet makes near words common; the astral letter checks code points, not UTF-16 units.
    const word = fc.array(fc.constantFrom('a', 'b', 'c', 'é', '𝔞'), { minLength: 1, maxLength: 7 }).map((cs) => cs.join(''));
    const aTerm = fc.record({
      word,
      fuzziness: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
      prefix: fc.boolean(),
      stem: fc.option(word, { nil: undefined }),
    });
    fc.assert(
      fc.property(word, aTerm, (w, t) => {
        const q: QueryTerm = { word: t.word, stem: t.stem ?? stemOf(t.word), fuzziness: t.fuzziness, prefix: t.prefix };
        expect(wordMatches(w, q)).toBe(bruteForce(w, q));
      }),
      { numRuns: runs(5_000) },
    );
  });

  it('agrees with the brute force on every pair of short words', () => {
    const words: string[] = [''];
    for (let n = 0; n < 4; n++) for (const w of words.filter((x) => x.length === n)) for (const c of ['a', 'b', 'c']) words.push(w + c);
    const all = words.filter((w) => w !== '');
    // Every pair checked, the disagreements asserted once (each expect() costs more than the check).
    const disagreements: Array<[string, string, number, boolean]> = [];
    for (const fuzziness of [1, 2] as const)
      for (const t of all) {
        const q: QueryTerm = { word: t, stem: '-', fuzziness, prefix: false };
        for (const w of all) if (wordMatches(w, q) !== bruteForce(w, q)) disagreements.push([w, t, fuzziness, wordMatches(w, q)]);
      }
    expect(disagreements).toEqual([]);
  });
});
