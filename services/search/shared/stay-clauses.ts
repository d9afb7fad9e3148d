/**
 * Elasticsearch clauses for the stay of a search (spec: "search_apartments_tool" rules 2-3), over
 * the fields toHomeDocument precomputes: `stay_starts`/`move_outs` answer "can this stay be
 * booked?" exactly as checkStay does; the price limits and the price sort read the indexed price
 * of the stay (./indexed-price.ts). All pure, tested by their output.
 */
import type { estypes } from '@elastic/elasticsearch';
import { flexStayFilter, indexedPriceOf, priceBandOf } from './indexed-price';
import type { PriceLimits } from './search-params';
import type { StayDates } from '../../stays/stay-dates';

type Query = estypes.QueryDslQueryContainer;
type FixedStay = Extract<StayDates, { kind: 'fixed' }>;

const nested = (path: string, filter: Query[]): Query => ({ nested: { path, query: { bool: { filter } } } });

/** A window end at or after `date` (open-ended windows are indexed as OPEN_WINDOW_END). */
function windowEndsOnOrAfter(date: string): Query {
  return { range: { 'stay_starts.window_end': { gte: date } } };
}

/** The homes that can host the stay; none for an undated search (bookable is a location clause). */
export function availabilityClauses(stay: StayDates): Query[] {
  switch (stay.kind) {
    case 'undated':
      return [];
    case 'start_only':
      // The apartment read's "a stay that meets the apartment's rules can start on start_date".
      return [nested('stay_starts', [{ term: { 'stay_starts.fixed_move_in': stay.start_date } }])];
    case 'fixed':
      return [
        nested('stay_starts', [
          { term: { 'stay_starts.move_in': stay.start_date } },
          { range: { 'stay_starts.min_nights': { lte: stay.nights } } },
          windowEndsOnOrAfter(stay.end_date),
        ]),
        { term: { move_outs: stay.end_date } },
      ];
    case 'flex':
      return [nested('flex_stays', flexStayFilter(stay))];
  }
}

const range = (field: string, p: PriceLimits): Query => ({ range: { [field]: { ...(p.min !== null ? { gte: p.min } : {}), ...(p.max !== null ? { lte: p.max } : {}) } } });

/**
 * Exact price limits where the index holds the exact price (undated, move-in date alone, Flex).
 * Where the price shown is the cheapest of several nested values (Flex without a tier), max_price
 * needs one of them under it and min_price none below it.
 */
export function exactPriceClauses(stay: StayDates, p: PriceLimits): Query[] {
  if (p.min === null && p.max === null) return [];
  const price = indexedPriceOf(stay);
  switch (price.kind) {
    case 'exact':
      return [range(price.field, p)];
    case 'nested': {
      const held = (limit: Query): Query => nested(price.path, [...price.filter, limit]);
      if (!price.cheapest) return [held(range(price.field, p))];
      const clauses: Query[] = [];
      if (p.max !== null) clauses.push(held({ range: { [price.field]: { lte: p.max } } }));
      if (p.min !== null) clauses.push({ bool: { must_not: [held({ range: { [price.field]: { lt: p.min } } })] } });
      return clauses;
    }
    case 'band':
      return [];
  }
}

/** The price band of the stay's move-in date and length, with further conditions on its bounds. */
function bandOf(stay: FixedStay, extra: Query[]): Query {
  const band = priceBandOf(stay);
  return nested(band.path, [...band.filter, ...extra]);
}

/** Fixed stays: homes whose band can meet the limits, or that have no band (priced exactly, never lost). */
export function bandCandidateClause(stay: FixedStay, p: PriceLimits): Query {
  const { lo, hi } = priceBandOf(stay);
  const meets: Query[] = [];
  if (p.max !== null) meets.push({ range: { [lo]: { lte: p.max } } });
  if (p.min !== null) meets.push({ range: { [hi]: { gte: p.min } } });
  return { bool: { should: [bandOf(stay, meets), { bool: { must_not: [bandOf(stay, [])] } }], minimum_should_match: 1 } };
}

/** Fixed stays: homes whose whole band lies inside the limits, so their exact price does too. */
export function bandInsideClause(stay: FixedStay, p: PriceLimits): Query {
  const { lo, hi } = priceBandOf(stay);
  const inside: Query[] = [];
  if (p.min !== null) inside.push({ range: { [lo]: { gte: p.min } } });
  if (p.max !== null) inside.push({ range: { [hi]: { lte: p.max } } });
  return bandOf(stay, inside);
}

/** A bound above any price, for the descending sort of a home without a band. */
export const MISSING_BAND_HIGH = 2_000_000_000;

/**
 * Sort by the stay's indexed price: the exact one (the cheapest nested value where several are the
 * stay's), or, for a fixed stay, its band's lower bound ascending and upper bound descending.
 */
export function priceSort(stay: StayDates, order: 'asc' | 'desc'): estypes.SortCombinations {
  const price = indexedPriceOf(stay);
  switch (price.kind) {
    case 'exact':
      return { [price.field]: order };
    case 'nested':
      return { [price.field]: { order, mode: 'min', nested: { path: price.path, filter: { bool: { filter: price.filter } } } } };
    case 'band':
      return {
        [order === 'asc' ? price.lo : price.hi]: {
          order,
          mode: order === 'asc' ? 'min' : 'max',
          // A home without a band (an index a week old) comes first, so it is priced before anything is ruled out.
          missing: order === 'asc' ? 0 : MISSING_BAND_HIGH,
          nested: { path: price.path, filter: { bool: { filter: price.filter } } },
        },
      };
  }
}
