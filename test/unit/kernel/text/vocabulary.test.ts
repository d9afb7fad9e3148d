/**
 * The vocabulary's expansions: exactly the words of the vocabulary the highlighter's rule matches (a
 * typo within the budget, first letter kept; for a prefix term, every word it starts), so the homes a
 * search asks for by these words are the homes the rule finds; too many, and the term is left to
 * Elasticsearch's own clause.
 */
import fc from 'fast-check';
import { withinFuzziness } from '../../../../services/kernel/text/matched';
import { expandedPlan, MAX_EXPANSIONS, Vocabulary, type ExpandedTerm } from '../../../../services/kernel/text/vocabulary';
import { queryPlan } from '../../../../services/kernel/text/query-plan';
import { runs } from '../../../support/property-runs';

// Words of three letters and a letter outside the BMP, so the fast path and the slow one are both checked.
const word = fc.array(fc.constantFrom('a', 'b', 'c', 'é', '𝐀'), { minLength: 1, maxLength: 9 }).map((cs) => cs.join(''));

describe('Vocabulary', () => {
  it('expands a term to the words its typo budget and prefix reach, exactly as the highlighter decides', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), word, fc.constantFrom(0, 1, 2), fc.boolean(), (words, typed, fuzziness, prefix) => {
        const term = { word: typed, stem: '', fuzziness: fuzziness as 0 | 1 | 2, prefix };
        const expected = [...new Set(words)].filter((w) => withinFuzziness(w, term) || (prefix && w.startsWith(typed)) || w === typed).sort();
        expect(new Vocabulary(words).expand(term)).toEqual(expected.length > MAX_EXPANSIONS ? null : expected);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('leaves a term that stands for too many words to Elasticsearch, and a plain short word as it is', () => {
    const many = Array.from({ length: MAX_EXPANSIONS + 1 }, (_, i) => `co${i}`);
    const vocabulary = new Vocabulary([...many, 'pool', 'coworking']);
    const [cowork] = expandedPlan(queryPlan('co'), vocabulary);
    expect((cowork.alternatives[0][0] as ExpandedTerm).expanded).toBeUndefined();
    const [pool, rooftp] = expandedPlan(queryPlan('pool rooftp'), new Vocabulary(['pool', 'rooftop', 'roof']));
    expect((pool.alternatives[0][0] as ExpandedTerm).expanded).toBeUndefined();
    expect((rooftp.alternatives[0][0] as ExpandedTerm).expanded).toEqual(['rooftop']);
    expect(expandedPlan(queryPlan('rooftp'), null)).toEqual(queryPlan('rooftp'));
  });
});
