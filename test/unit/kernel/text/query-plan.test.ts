/** What q asks once analysed (services/kernel/text/query-plan.ts): its parts, synonyms, typo budgets and the last word's prefix. */
import fc from 'fast-check';
import { queryPlan, typoBudget, type QueryPart } from '../../../../services/kernel/text/query-plan';
import { synonymIndex } from '../../../../services/kernel/text/synonyms';
import { runs } from '../../../support/property-runs';

const termsOf = (part: QueryPart): string[][] => part.alternatives.map((a) => a.map((t) => t.word));

describe('queryPlan', () => {
  it('gives no part for a q without words', () => {
    for (const q of ['', ' ', '   \t\n', '*', '"" () : \\ / -']) expect(queryPlan(q)).toEqual([]);
  });

  it('reads the characters of Elasticsearch query syntax as separators, and AND as a word', () => {
    const plan = queryPlan('balcony AND "city:views" (sunny*) \\ title:/re.*x/');
    expect(plan.map((p) => p.text)).toEqual(['balcony', 'AND', 'city', 'views', 'sunny', 'title', 're', 'x']);
    expect(plan[1].alternatives).toEqual([[{ word: 'and', stem: 'and', fuzziness: 0, prefix: false }]]);
  });

  it('never throws and keeps every part to words, for any string up to 200 characters', () => {
    const syntax = fc.constantFrom('AND', 'OR', 'NOT', ':', '*', '"', '(', ')', '\\', '/', '~', '^', '[', ']', '{', '}', '!', '&&', '||', '-', '+', '?');
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 12 }),
      syntax,
      fc.constantFrom('w/d', 'pet friendly', 'gym', 'Café', 'washer dryer in'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const q = pieces.join(' ').slice(0, 200);
        const plan = queryPlan(q);
        // Checked part by part, asserted once a case (each expect() costs more than the check).
        const wrong = plan.filter(
          (part) => !q.includes(part.text) || part.alternatives.length === 0 || part.alternatives.flat().some((term) => !/^[\p{L}\p{N}]+$/u.test(term.word)),
        );
        expect(wrong).toEqual([]);
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('plans a 200-character q of many words quickly', () => {
    const q = 'ac w/d gym pool wifi doorman '.repeat(8).slice(0, 200);
    const started = performance.now();
    const plan = queryPlan(q);
    expect(performance.now() - started).toBeLessThan(200);
    // The same requirement repeated is planned once; the cut last word is a prefix of its own.
    expect(plan.map((p) => p.text)).toEqual(['ac', 'w/d', 'gym', 'pool', 'wifi', 'doorman', 'doorm']);
    expect(plan[6].alternatives).toEqual([[{ word: 'doorm', stem: 'doorm', fuzziness: 1, prefix: true }]]);
    expect(queryPlan('x'.repeat(200))).toHaveLength(1);
  });

  it('expands "w/d", "washer dryer", "washer/dryer" and "in unit laundry" to the same alternatives', () => {
    const [wd] = queryPlan('w/d');
    expect(termsOf(wd)).toContainEqual(['washer', 'dryer']);
    expect(termsOf(wd)).toContainEqual(['in', 'unit', 'laundry']);
    for (const q of ['washer dryer', 'Washer/Dryer', 'in-unit laundry', 'in unit laundry', 'W/D']) {
      const plan = queryPlan(q);
      expect(plan).toHaveLength(1);
      expect(plan[0].text).toBe(q);
      expect(plan[0].alternatives).toEqual(wd.alternatives);
    }
  });

  it('expands the other groups both ways', () => {
    const same = (a: string, b: string): void => expect(queryPlan(a)[0].alternatives).toEqual(queryPlan(b)[0].alternatives);
    same('gym', 'fitness center');
    same('ac', 'air conditioning');
    same('pet friendly', 'pets allowed');
    same('doorman', 'concierge');
    same('parking', 'garage');
    same('wifi', 'internet');
    same('rooftop', 'roof deck');
  });

  it('matches a phrase by stems: "pets friendly" and "Pet-Friendly" are "pet friendly"', () => {
    expect(queryPlan('pets friendly')[0].alternatives).toEqual(queryPlan('pet friendly')[0].alternatives);
    expect(queryPlan('Pet-Friendly')[0].alternatives).toEqual(queryPlan('pet friendly')[0].alternatives);
  });

  it('gives synonym terms no typo budget and no prefix, even at the end of q', () => {
    const [part] = queryPlan('concierge');
    for (const term of part.alternatives.flat()) expect(term).toMatchObject({ fuzziness: 0, prefix: false });
  });

  it('takes the longest phrase at each position', () => {
    const synonyms = synonymIndex([
      ['washer dryer', 'laundry'],
      ['washer dryer in unit', 'in unit laundry'],
      ['unit', 'apartment'],
    ]);
    const plan = queryPlan('washer dryer in unit', synonyms);
    expect(plan).toHaveLength(1);
    expect(termsOf(plan[0])).toEqual([
      ['washer', 'dryer', 'in', 'unit'],
      ['in', 'unit', 'laundry'],
    ]);
    const shorter = queryPlan('washer dryer unit', synonyms);
    expect(shorter.map((p) => p.text)).toEqual(['washer dryer', 'unit']);
    expect(termsOf(shorter[1])).toEqual([['unit'], ['apartment']]);
  });

  it('keeps a stand-alone word whatever its length, and single letters outside phrases', () => {
    expect(queryPlan('a w 2 d').map((p) => p.text)).toEqual(['a', 'w', '2', 'd']);
  });

  it('gives each plain word a typo budget by its letters and digits as typed', () => {
    const budgets = queryPlan('loft sunny fireplace apartments renovated').map((p) => p.alternatives[0][0].fuzziness);
    expect(budgets).toEqual([0, 1, 2, 2, 2]);
    expect(typoBudget('Café')).toBe(0);
    expect(typoBudget('Cafés')).toBe(1);
    expect(typoBudget('tenant’s')).toBe(1);
    expect(typoBudget('abcdefgh')).toBe(1);
    expect(typoBudget('abcdefghi')).toBe(2);
    // A number is never fuzzy: 12345 and 12346 are different addresses.
    expect(typoBudget('12345')).toBe(0);
    expect(typoBudget('123456789')).toBe(0);
    expect(typoBudget('1234a')).toBe(1);
  });

  it('makes the last word, and only it, a prefix when it is a plain word', () => {
    const plan = queryPlan('sunny brownst');
    expect(plan.map((p) => p.alternatives[0][0].prefix)).toEqual([false, true]);
    expect(plan[1].alternatives[0][0]).toEqual({ word: 'brownst', stem: 'brownst', fuzziness: 1, prefix: true });
    expect(queryPlan('washer dr').map((p) => p.alternatives[0][0].prefix)).toEqual([false, true]);
    // Ending in a synonym phrase: no prefix anywhere.
    expect(
      queryPlan('sunny gym')
        .flatMap((p) => p.alternatives.flat())
        .some((t) => t.prefix),
    ).toBe(false);
  });

  it('folds what was typed into the term and keeps the typed text on the part', () => {
    expect(queryPlan('Cafés')).toEqual([{ text: 'Cafés', alternatives: [[{ word: 'cafes', stem: 'cafe', fuzziness: 1, prefix: true }]] }]);
  });
});
