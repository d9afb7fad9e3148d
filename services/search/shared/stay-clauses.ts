/**
 * Elasticsearch clauses for the stay of a search (docs/contract.md, search_apartments_tool rules 1-3), over
 * the fields toHomeDocument precomputes: `move_ins`/`minimum_keys`/`open_windows`/`move_outs` answer "can
 * this stay be booked?" exactly as checkStay does; the price limits and the price sort read the indexed price
 * of the stay (./indexed-price.ts). All pure, tested by their output.
 */
import type { estypes } from '@elastic/elasticsearch';
import { flexStayFilter, indexedPriceOf, priceBandOf } from './indexed-price';
import type { PriceLimits } from './search-params';
import type { StayDates } from '../../stays/stay-dates';
import { minimumKeys } from '../../kernel/store/minimum-keys';
import { toDayNumber } from '../../kernel/engine/dates';

type Query = estypes.QueryDslQueryContainer;
type FixedStay = Extract<StayDates, { kind: 'fixed' }>;

const nested = (path: string, filter: Query[]): Query => ({ nested: { path, query: { bool: { filter } } } });

/**
 * The homes that can host the stay; none for an undated search (bookable is a location clause).
 * A fixed stay: its move-in date allowed, with a minimum it meets (kernel/store/minimum-keys.ts), its
 * nights inside one bookable window, its move-out date allowed. Flat fields, as checkStay decides them.
 */
export function availabilityClauses(stay: StayDates): Query[] {
  switch (stay.kind) {
    case 'undated':
      return [];
    case 'start_only':
      // The apartment read's "a stay that meets the apartment's rules can start on start_date".
      return [{ term: { fixed_move_ins: toDayNumber(stay.start_date) } }];
    case 'fixed': {
      // The range fields hold day numbers (kernel/store/home-document.ts, DayRangeValue).
      const start = toDayNumber(stay.start_date);
      const end = toDayNumber(stay.end_date);
      return [
        { term: { move_ins: start } },
        { terms: { minimum_keys: minimumKeys(stay.start_date, stay.nights) } },
        { range: { open_windows: { gte: start, lt: end, relation: 'contains' } } },
        { term: { move_outs: end } },
      ];
    }
    case 'flex':
      return [nested('flex_stays', flexStayFilter(stay))];
  }
}

/**
 * Whether availabilityClauses(stay) admit only homes where the stay can be booked (a fixed stay, a
 * move-in date alone: exactly checkStay's and the apartment read's answer), so a search needs no
 * `bookable` clause beside them: every indexed home is published and undeleted (property test:
 * test/unit/indexer/flat-availability.test.ts).
 */
export function impliesBookable(stay: StayDates): boolean {
  return stay.kind === 'fixed' || stay.kind === 'start_only';
}

const range = (field: string, p: PriceLimits): Query => ({
  range: { [field]: { ...(p.min !== null ? { gte: p.min } : {}), ...(p.max !== null ? { lte: p.max } : {}) } },
});

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

/** The home has bounds for the stay's cell (an index a week old may not: it is priced exactly, never lost). */
const hasBand = (stay: FixedStay): Query => ({ exists: { field: priceBandOf(stay).lo } });

/** Fixed stays: homes whose bounds can meet the limits, or that have none. */
export function bandCandidateClause(stay: FixedStay, p: PriceLimits): Query {
  const { lo, hi } = priceBandOf(stay);
  const meets: Query[] = [];
  if (p.max !== null) meets.push({ range: { [lo]: { lte: p.max } } });
  if (p.min !== null) meets.push({ range: { [hi]: { gte: p.min } } });
  return { bool: { should: [{ bool: { filter: meets } }, { bool: { must_not: [hasBand(stay)] } }], minimum_should_match: 1 } };
}

/** Fixed stays: homes whose whole band lies inside the limits, so their exact price does too. */
export function bandInsideClause(stay: FixedStay, p: PriceLimits): Query {
  const { lo, hi } = priceBandOf(stay);
  const inside: Query[] = [hasBand(stay)];
  if (p.min !== null) inside.push({ range: { [lo]: { gte: p.min } } });
  if (p.max !== null) inside.push({ range: { [hi]: { lte: p.max } } });
  return { bool: { filter: inside } };
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
          // A home without a band (an index a week old) comes first, so it is priced before anything is ruled out.
          missing: order === 'asc' ? 0 : MISSING_BAND_HIGH,
          // A cell no home has is not in the mapping at all.
          unmapped_type: 'integer',
        },
      };
  }
}
