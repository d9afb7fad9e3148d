/**
 * The flat index (docs/search-index.md, "A flat index"): the fields toHomeDocument writes, read the
 * way Elasticsearch reads them (a `terms` query on a `long_range`, a `contains` range on a
 * `date_range`, a `term` on a `date_range`: search/shared/stay-in-document.ts, availableIn, which
 * the watches' matching decides with), make a home a candidate for a stay if and only if checkStay
 * says the stay can be booked; and the price cell of a bookable stay bounds its price.
 */
import fc from 'fast-check';
import { toHomeDocument } from '../../../indexer/document';
import { START_HORIZON_DAYS } from '../../../indexer/price-bands';
import { addDays, daysBetween, toDayNumber } from '../../../services/kernel/engine/dates';
import { withBuildingRules } from '../../../services/kernel/engine/building-rules';
import { displayPrice } from '../../../services/kernel/engine/pricing';
import { checkStartOnly, checkStay } from '../../../services/kernel/engine/stay-check';
import type { IsoDate } from '../../../services/kernel/inventory/records';
import type { DayRangeValue } from '../../../services/kernel/store/home-document';
import { NIGHTS_CAP, clampNights, coverOf, minimumKeyRanges, minimumKeys, nodesHolding } from '../../../services/kernel/store/minimum-keys';
import { nightCut, priceCellOf, CELL_NIGHT_CUTS } from '../../../services/kernel/store/price-cells';
import { arbHomeWithFixedStays } from '../../support/arbitraries';
import { availableIn } from '../../../services/search/shared/stay-in-document';
import { makeMarket, makeProperty } from '../../support/records';
import { isIndexable } from '../../../indexer/source';
import { expectCoverage, runs } from '../../support/property-runs';

const NO_PETS = { cats: 0, dogs: 0 };
const property = makeProperty();
const market = makeMarket();

/** An `integer_range` value of day numbers as Elasticsearch holds it: [gte, lt), open-ended without `lt`. */
const holdsDate = (r: DayRangeValue, date: IsoDate): boolean => {
  const day = toDayNumber(date);
  return r.gte <= day && (r.lt === undefined || day < r.lt);
};

const arbCase = arbHomeWithFixedStays(10, START_HORIZON_DAYS);

describe('minimum keys', () => {
  it('a stay of n nights finds exactly one key of a minimum m when m ≤ n, and none when m > n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: NIGHTS_CAP + 50 }), fc.integer({ min: 0, max: NIGHTS_CAP + 50 }), (m, n) => {
        const cover = new Set(coverOf(m));
        const found = nodesHolding(n).filter((node) => cover.has(node));
        // A minimum or a stay of 0 nights counts as one night (neither exists).
        expect(found.length).toBe(clampNights(m) <= clampNights(n) ? 1 : 0);
      }),
      { numRuns: runs(5000) },
    );
  });

  it('asks one key per binary digit of the nights (2-7 for stays of 2-120 nights), each one a cover can hold', () => {
    expect([1, 2, 3, 30, 120, 4095].map((n) => nodesHolding(n).length)).toEqual([1, 2, 2, 5, 7, 12]);
    // The keys left out are the tree's left edge (nodes numbered by a power of two): no cover holds one.
    fc.assert(
      fc.property(fc.integer({ min: -5, max: NIGHTS_CAP + 50 }), (m) => {
        for (const node of coverOf(m)) expect(node & (node - 1)).not.toBe(0);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('a span of days holds the keys of its own days only', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: -5, max: 70 }),
        fc.integer({ min: 1, max: 200 }),
        (from, length, at, minimum) => {
          const first = toDayNumber('2027-01-01') + from;
          const ranges = minimumKeyRanges(first, first + length, minimum);
          const day = addDays('2027-01-01', from + at);
          const held = minimumKeys(day, minimum).some((k) => ranges.some((r) => r.gte <= k && k <= r.lte));
          expect(held).toBe(at >= 0 && at < length);
        },
      ),
      { numRuns: runs(3000) },
    );
  });

  it('costs a span at most two ranges per level: eight for a 30-night minimum', () => {
    expect(minimumKeyRanges(100, 200, 30)).toHaveLength(8);
    for (let m = 1; m < 400; m++) expect(coverOf(m).length).toBeLessThanOrEqual(24);
  });
});

describe('the flat document', () => {
  it('admits a fixed stay exactly when checkStay says it can be booked', () => {
    let booked = 0;
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const doc = toHomeDocument(home, property, market, today);
        const ruled = withBuildingRules(home, property);
        for (const stay of stays) {
          const available = checkStay(ruled, stay, NO_PETS, today).available;
          const nights = daysBetween(stay.start_date, stay.end_date);
          expect(availableIn(doc, { kind: 'fixed', start_date: stay.start_date, end_date: stay.end_date, nights })).toBe(available);
          // So a dated search needs no `bookable` clause (search/shared/filters.ts): an indexed home that admits a stay is bookable.
          if (available && isIndexable(home)) expect(doc.bookable).toBe(true);
          if (available) booked += 1;
        }
      }),
      { numRuns: runs(600) },
    );
    expectCoverage(() => expect(booked).toBeGreaterThan(300));
  });

  it('lists a move-in date in fixed_move_ins exactly when the apartment read says a stay can start on it', () => {
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const doc = toHomeDocument(home, property, market, today);
        const ruled = withBuildingRules(home, property);
        for (const stay of stays) {
          const starts = checkStartOnly(ruled, stay.start_date, today).available;
          expect(doc.fixed_move_ins.some((r) => holdsDate(r, stay.start_date))).toBe(starts);
          expect(availableIn(doc, { kind: 'start_only', start_date: stay.start_date })).toBe(starts);
          if (starts && isIndexable(home)) expect(doc.bookable).toBe(true);
        }
      }),
      { numRuns: runs(400) },
    );
  });

  it('bounds the display price of every bookable fixed stay by its price cell', () => {
    let checked = 0;
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const doc = toHomeDocument(home, property, market, today);
        const ruled = withBuildingRules(home, property);
        for (const stay of stays) {
          if (!checkStay(ruled, stay, NO_PETS, today).available) continue;
          const cell = priceCellOf(stay.start_date, daysBetween(stay.start_date, stay.end_date));
          const lo = doc.price_lo[cell.lo.slice('price_lo.'.length)];
          const hi = doc.price_hi[cell.hi.slice('price_hi.'.length)];
          const price = displayPrice(ruled, stay).display_price_with_discount;
          expect(lo).toBeLessThanOrEqual(price);
          expect(hi).toBeGreaterThanOrEqual(price);
          checked += 1;
        }
      }),
      { numRuns: runs(600) },
    );
    expectCoverage(() => expect(checked).toBeGreaterThan(300));
  });

  it('cuts the cells of stay lengths at 30 nights, where the display unit changes', () => {
    expect(CELL_NIGHT_CUTS).toContain(30);
    expect([1, 2, 29, 30, 59, 60, 120, 1200].map(nightCut)).toEqual([1, 2, 21, 30, 30, 60, 90, 365]);
    expect(priceCellOf('2027-03-31', 45)).toEqual({ lo: 'price_lo.202703_30', hi: 'price_hi.202703_30' });
    // Two months a cell: April shares March's.
    expect(priceCellOf('2027-04-30', 45)).toEqual({ lo: 'price_lo.202703_30', hi: 'price_hi.202703_30' });
    expect(priceCellOf('2027-12-01', 1)).toEqual({ lo: 'price_lo.202711_1', hi: 'price_hi.202711_1' });
  });
});
