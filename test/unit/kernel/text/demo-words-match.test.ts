/**
 * Property tests over the demo inventory's own words (stack/demo/generate.ts): a word of a home's
 * title or amenities, or of a building's name or amenities, searched alone, matches the text it
 * came from, and so does the same word with one typo past its first letter once it has 5 letters.
 */
import fc from 'fast-check';
import { matchedFragment } from '../../../../services/kernel/text/matched';
import { queryPlan } from '../../../../services/kernel/text/query-plan';
import { wordsOf } from '../../../../services/kernel/text/words';
import { generateInventory } from '../../../../stack/demo/generate';
import { runs } from '../../../support/property-runs';

const inventory = generateInventory({ seed: 5, homes: 50, today: '2027-01-10' });
const texts = [...[...inventory.homes].flatMap((h) => [h.name, ...h.amenities]), ...inventory.properties.flatMap((p) => [p.name, ...p.amenities])];
/** Each word of each text, as the text spells it, with the text. */
const samples = [...new Set(texts)].flatMap((text) => wordsOf(text).map((w) => ({ text, typed: text.slice(w.start, w.end) })));
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

describe('words of the demo inventory', () => {
  it('come from titles, amenities and building names', () => {
    expect(samples.length).toBeGreaterThan(200);
    expect(samples.some((s) => s.typed === 'Washer')).toBe(true);
  });

  it('searched alone, in any case, match the text they came from', () => {
    fc.assert(
      fc.property(fc.constantFrom(...samples), fc.boolean(), ({ text, typed }, upper) => {
        const q = upper ? typed.toUpperCase() : typed.toLowerCase();
        expect(matchedFragment(text, queryPlan(q))).toMatch(/<mark>/);
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('every one of them matches its text, checked exhaustively', () => {
    for (const { text, typed } of samples) expect([typed, matchedFragment(text, queryPlan(typed))]).not.toEqual([typed, null]);
  });

  const long = samples.filter((s) => s.typed.length >= 5 && /^[A-Za-z]+$/.test(s.typed));

  it('with one letter past the first replaced, match the text they came from when they have 5 letters or more', () => {
    expect(long.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.constantFrom(...long), fc.nat(), fc.constantFrom(...LETTERS), fc.boolean(), ({ text, typed }, at, letter, lastWord) => {
        const i = 1 + (at % (typed.length - 1));
        fc.pre(typed[i].toLowerCase() !== letter);
        const typo = typed.slice(0, i) + letter + typed.slice(i + 1);
        const plan = queryPlan(typo);
        // Not the last word of q, the typo has no prefix to lean on: its budget alone forgives it.
        if (!lastWord) for (const t of plan.flatMap((p) => p.alternatives.flat())) t.prefix = false;
        // A typo that spells a synonym phrase asks for that phrase's group instead (typed right, no typo budget).
        fc.pre(plan.length === 1 && plan[0].alternatives.length === 1);
        expect(matchedFragment(text, plan)).toMatch(/<mark>/);
      }),
      { numRuns: runs(1_000) },
    );
  });
});
