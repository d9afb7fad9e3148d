/**
 * The `_id` slices of a full rebuild (indexer/id-slices.ts): without a census every base slice is
 * read alone; with one, neighbouring base slices of one first class are read together up to the
 * target, and in every plan each id matches exactly one slice (the patterns checked as JavaScript
 * regular expressions, `\z` read as the end of input). The real server reads every home once
 * through a grouped plan in test/integration/indexer-full-rebuild.test.ts.
 */
import fc from 'fast-check';
import { BASE_SLICES, idSlices, planSlices, SLICE_TARGET, type IdSlice, type SliceCensus } from '../../../indexer/id-slices';
import { runs } from '../../support/property-runs';

const asJs = (pattern: string): RegExp => new RegExp(pattern.replace(/\\z/g, '$'));
const matching = (plan: IdSlice[], id: string): number => plan.filter((s) => asJs(s.pattern).test(id)).length;

/** The census a plan's read would give, for homes counted per base slice. */
const censusOf = (plan: IdSlice[], perBase: readonly number[]): SliceCensus =>
  plan.map((s) => ({ bases: s.bases, count: s.bases.reduce((n, b) => n + perBase[b], 0) }));

const ODD_IDS = [
  '',
  'x',
  'Z9',
  'home-000123',
  'home-ÄÖ',
  'a-b_c.d',
  '0f8fad5b-d9cb-469f-a165-70867728950e',
  'UPPER',
  '42',
  'ends-with-space ',
  'line\nbreak',
  '65f1c0ffee0000000000abcd',
];

describe('id slices', () => {
  it('reads every base slice alone without a census', () => {
    const plan = planSlices(null);
    expect(plan).toEqual(idSlices());
    expect(plan).toHaveLength(BASE_SLICES);
  });

  it('puts every id in exactly one slice, with or without a census', () => {
    const perBase = Array.from({ length: BASE_SLICES }, (_, b) => (b % 7 === 0 ? 400 : b % 3 === 0 ? 0 : 90));
    const plans = [planSlices(null), planSlices(censusOf(planSlices(null), perBase)), planSlices(censusOf(planSlices(null), perBase), 50)];
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...ODD_IDS), fc.stringMatching(/^[0-9a-f]{24}$/)), (id) => {
        for (const plan of plans) expect(matching(plan, id)).toBe(1);
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('groups neighbouring base slices of one first class up to the target, each base slice once', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_500 })), { minLength: BASE_SLICES, maxLength: BASE_SLICES }), (perBase) => {
        const plan = planSlices(censusOf(planSlices(null), perBase));
        expect(plan.flatMap((s) => s.bases)).toEqual(Array.from({ length: BASE_SLICES }, (_, b) => b));
        for (const s of plan) {
          if (s.bases.length === 1) continue;
          // Contiguous, one first class, within the target.
          expect(s.bases.every((b, i) => b === s.bases[0] + i)).toBe(true);
          expect(new Set(s.bases.map((b) => Math.floor((b - 1) / 19))).size).toBe(1);
          expect(s.bases.reduce((n, b) => n + perBase[b], 0)).toBeLessThanOrEqual(SLICE_TARGET);
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('reads sequential ids (home-000123) in 110 slices instead of 362: the empty classes join their neighbours', () => {
    // 100,000 ids ending in two digits: 1,000 homes in each of the 100 digit-digit slices, none elsewhere.
    const perBase = idSlices().map((s) => (/^\d\d\\z$/.test(s.pattern) ? 1_000 : 0));
    const plan = planSlices(censusOf(planSlices(null), perBase));
    expect(plan).toHaveLength(110);
    // Re-planned from its own census, the plan stays as it is.
    expect(planSlices(censusOf(plan, perBase))).toEqual(plan);
  });

  it('reads a grouped slice that grew past the target as its base slices again', () => {
    const perBase = idSlices().map((s) => (/^\d\d\\z$/.test(s.pattern) ? 100 : 0));
    const grouped = planSlices(censusOf(planSlices(null), perBase));
    const big = grouped.find((s) => s.bases.length > 1)!;
    const census = grouped.map((s) => ({ bases: s.bases, count: s === big ? SLICE_TARGET + 1 : s.bases.reduce((n, b) => n + perBase[b], 0) }));
    const next = planSlices(census);
    for (const b of big.bases) expect(next).toContainEqual({ pattern: idSlices()[b].pattern, bases: [b] });
  });

  it('ignores census groups that do not fit the base slices (not contiguous, across first classes, out of range)', () => {
    const broken: SliceCensus = [
      { bases: [1, 3], count: 5 },
      { bases: [19, 20], count: 5 },
      { bases: [BASE_SLICES + 3], count: 1 },
    ];
    const plan = planSlices(broken);
    expect(plan.flatMap((s) => s.bases)).toEqual(Array.from({ length: BASE_SLICES }, (_, b) => b));
    expect(plan.find((s) => s.bases.includes(1))!.bases).toEqual([1]);
    expect(plan.find((s) => s.bases.includes(19))!.bases).toEqual([19]);
  });
});
