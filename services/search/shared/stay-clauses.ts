/**
 * Elasticsearch clauses for the stay of a search (spec: "search_apartments_tool" rules 2-3), over
 * the fields toHomeDocument precomputes: `stay_starts`/`move_outs` answer "can this stay be
 * booked?" exactly as checkStay does; `price_bands` bound a fixed stay's price; `flex_stays` and
 * `reference_price` hold exact prices. All pure, tested by their output.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { PriceLimits, SearchStay } from './search-params';

type Query = estypes.QueryDslQueryContainer;
type FixedStay = Extract<SearchStay, { kind: 'fixed' }>;
type FlexStay = Extract<SearchStay, { kind: 'flex' }>;

const nested = (path: string, filter: Query[]): Query => ({ nested: { path, query: { bool: { filter } } } });

/** A window end at or after `date` (open-ended windows are indexed as OPEN_WINDOW_END). */
function windowEndsOnOrAfter(date: string): Query {
  return { range: { 'stay_starts.window_end': { gte: date } } };
}

/** The homes that can host the stay; none for an undated search (bookable is a location clause). */
export function availabilityClauses(stay: SearchStay): Query[] {
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

/** A Flex tier the home offers and can hold from the move-in date (the one asked for, or any). */
export function flexStayFilter(stay: FlexStay): Query[] {
  const filter: Query[] = [{ term: { 'flex_stays.move_in': stay.start_date } }];
  if (stay.committed_nights !== null) filter.push({ term: { 'flex_stays.committed_nights': stay.committed_nights } });
  return filter;
}

const range = (field: string, p: PriceLimits): Query => ({ range: { [field]: { ...(p.min !== null ? { gte: p.min } : {}), ...(p.max !== null ? { lte: p.max } : {}) } } });

/**
 * Exact price limits where the index holds the exact price: the reference price (undated, move-in
 * date alone) and Flex tiers. Without a tier the shown price is the cheapest tier the home can hold,
 * so max_price needs one tier under it and min_price no tier below it.
 */
export function exactPriceClauses(stay: SearchStay, p: PriceLimits): Query[] {
  if (p.min === null && p.max === null) return [];
  switch (stay.kind) {
    case 'undated':
    case 'start_only':
      return [range('reference_price.with_discount', p)];
    case 'flex': {
      const base = flexStayFilter(stay);
      if (stay.committed_nights !== null) return [nested('flex_stays', [...base, range('flex_stays.price', p)])];
      const clauses: Query[] = [];
      if (p.max !== null) clauses.push(nested('flex_stays', [...base, { range: { 'flex_stays.price': { lte: p.max } } }]));
      if (p.min !== null) clauses.push({ bool: { must_not: [nested('flex_stays', [...base, { range: { 'flex_stays.price': { lt: p.min } } }])] } });
      return clauses;
    }
    case 'fixed':
      return [];
  }
}

/** The price band of the stay's move-in date and length. */
function bandOf(stay: FixedStay, extra: Query[]): Query {
  return nested('price_bands', [{ term: { 'price_bands.move_in': stay.start_date } }, { term: { 'price_bands.nights': stay.nights } }, ...extra]);
}

/** Fixed stays: homes whose band can meet the limits, or that have no band (priced exactly, never lost). */
export function bandCandidateClause(stay: FixedStay, p: PriceLimits): Query {
  const meets: Query[] = [];
  if (p.max !== null) meets.push({ range: { 'price_bands.lo': { lte: p.max } } });
  if (p.min !== null) meets.push({ range: { 'price_bands.hi': { gte: p.min } } });
  return { bool: { should: [bandOf(stay, meets), { bool: { must_not: [bandOf(stay, [])] } }], minimum_should_match: 1 } };
}

/** Fixed stays: homes whose whole band lies inside the limits, so their exact price does too. */
export function bandInsideClause(stay: FixedStay, p: PriceLimits): Query {
  const inside: Query[] = [];
  if (p.min !== null) inside.push({ range: { 'price_bands.lo': { gte: p.min } } });
  if (p.max !== null) inside.push({ range: { 'price_bands.hi': { lte: p.max } } });
  return bandOf(stay, inside);
}

/** A bound above any price, for the descending sort of a home without a band. */
export const MISSING_BAND_HIGH = 2_000_000_000;

/** Sort of a fixed stay by its band's bound: the lower one ascending, the upper one descending. */
export function bandSort(stay: FixedStay, order: 'asc' | 'desc'): estypes.SortCombinations {
  const field = order === 'asc' ? 'price_bands.lo' : 'price_bands.hi';
  return {
    [field]: {
      order,
      mode: order === 'asc' ? 'min' : 'max',
      // A home without a band (an index a week old) comes first, so it is priced before anything is ruled out.
      missing: order === 'asc' ? 0 : MISSING_BAND_HIGH,
      nested: {
        path: 'price_bands',
        filter: { bool: { filter: [{ term: { 'price_bands.move_in': stay.start_date } }, { term: { 'price_bands.nights': stay.nights } }] } },
      },
    },
  };
}

/** Sort by the exact Flex price shown: the tier asked for, or the cheapest the home can hold. */
export function flexPriceSort(stay: FlexStay, order: 'asc' | 'desc'): estypes.SortCombinations {
  return {
    'flex_stays.price': { order, mode: 'min', nested: { path: 'flex_stays', filter: { bool: { filter: flexStayFilter(stay) } } } },
  };
}
