/**
 * The price facet's buckets (services/search/apartments/facet-price-edges.ts): whatever the spread of
 * prices, the unit of the search and the unit the price is shown in, every whole-dollar price of the
 * spread falls in exactly one bucket (by the limits its count is taken with), so the counts add up to the
 * total_count without price limits (docs/contract.md, search_apartments_tool rule 11).
 */
import fc from 'fast-check';
import { drawEdges, edgeQuantum, priceBuckets, type PriceSpread } from '../../../services/search/apartments/facet-price-edges';
import { bucketOf } from '../../../services/search/apartments/facet-price-counts';
import { displayUnit, withinLimits, type PriceUnit } from '../../../services/search/shared/search-params';
import type { StayDates } from '../../../services/stays/stay-dates';

const UNITS: PriceUnit[] = ['per_night', 'per_month'];

/** A stay of each kind the facet prices: short and long fixed stays, Flex, undated. */
const stays = fc.oneof(
  fc.integer({ min: 1, max: 400 }).map((nights): StayDates => ({ kind: 'fixed', start_date: '2027-01-01', end_date: '2027-01-02', nights })),
  fc.constant<StayDates>({ kind: 'flex', start_date: '2027-01-01', committed_nights: 90 }),
  fc.constant<StayDates>({ kind: 'undated' }),
);

/** Whole-dollar prices in the shown unit (nightly or monthly figures, up to a mansion's month). */
const prices = fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 1, maxLength: 60 });

describe('priceBuckets over drawEdges', () => {
  it('puts every price of the spread in exactly one bucket, for every unit of the search and of the shown price', () => {
    fc.assert(
      fc.property(stays, fc.constantFrom(...UNITS), prices, fc.boolean(), fc.integer({ min: 0, max: 2_000 }), (stay, unit, values, straddled, budget) => {
        const shown = displayUnit(stay);
        const spread: PriceSpread = { min: Math.min(...values), max: Math.max(...values) };
        // A fixed stay's inner edges move to where fewer bounds straddle them, and some go: any straddler count.
        if (straddled) spread.straddlers = (edge) => (edge * 7919) % 13;
        const buckets = priceBuckets(drawEdges(spread, edgeQuantum(stay, unit), budget), unit, shown);
        // Checked value by value, asserted once a case (each expect() costs more than the check).
        const misplaced = values.flatMap((price) => {
          const holding = buckets.filter((b) => withinLimits(price, b.limits));
          const found = bucketOf(price, buckets);
          return holding.length === 1 && found === buckets.indexOf(holding[0]) ? [] : [{ price, holding: holding.length, found }];
        });
        expect(misplaced).toEqual([]);
        // Whole dollars, ascending, not overlapping, in the search's unit.
        const malformed = buckets.filter(
          (b, i) => !(Number.isInteger(b.min) && Number.isInteger(b.max) && b.min <= b.max) || (i > 0 && b.min !== buckets[i - 1].max + 1),
        );
        expect(malformed).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });
});
