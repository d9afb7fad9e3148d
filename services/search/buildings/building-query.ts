/**
 * What one building search asks once its arguments are read (docs/contract.md, "search_properties_tool"),
 * and the apartment search it stands on: the same place, filters, stay and rating threshold,
 * plus a minimum square footage, monthly price limits and a building order.
 */
import type { QueryPart } from '../../kernel/text/query-plan';
import type { estypes } from '@elastic/elasticsearch';
import type { SharedFilters } from '../shared/filters';
import type { ResolvedLocation } from '../shared/location';
import type { PricingBudget } from '../shared/pricing-budget';
import type { Polygon } from '../shared/polygon';
import { displayLimits, displayUnit, type SearchParams } from '../shared/search-params';
import type { StayDates } from '../../stays/stay-dates';

export const BUILDING_SORTS = ['recommended', 'price_asc', 'price_desc', 'rating_desc', 'distance'] as const;
export type BuildingSort = (typeof BUILDING_SORTS)[number];

export interface BuildingQuery {
  /** The place searched; null when a polygon alone places the search (it may cross markets). */
  location: ResolvedLocation | null;
  /** The drawn shape, when one is given: only buildings inside it match, relaxed or not. */
  polygon?: Polygon | null;
  filters: SharedFilters;
  stay: StayDates;
  /** Monthly USD limits on each unit's final price (null: none). */
  monthly: { min: number | null; max: number | null };
  minRating: number | null;
  minSqft: number | null;
  sort: BuildingSort;
  /** A word search's q, analysed: only units whose texts hold every part (narrowing: the building order stays). */
  text?: readonly QueryPart[] | null;
  /** When `text` was expanded in a vocabulary not yet confirmed for this request (../shared/read-q.ts, speculativePlan): what settles it. */
  textSettled?: Promise<QueryPart[] | null>;
  /** Further clauses a relaxed search adds (buildings already shown, a set of cities). */
  extra?: readonly estypes.QueryDslQueryContainer[];
  /** The request's pricing budget (config SEARCH_MAX_PRICED), shared by the search and its relaxation steps. */
  budget?: PricingBudget;
}

/** "distance without coordinates falls back to recommended". */
export function effectiveSort(q: BuildingQuery): BuildingSort {
  return q.sort === 'distance' && q.filters.near_latitude === undefined ? 'recommended' : q.sort;
}

export function isPriceSort(sort: BuildingSort): sort is 'price_asc' | 'price_desc' {
  return sort === 'price_asc' || sort === 'price_desc';
}

/** The apartment search whose matches are the building search's units. */
export function unitSearchParams(q: BuildingQuery): SearchParams {
  const sort = effectiveSort(q);
  const extra: estypes.QueryDslQueryContainer[] = [...(q.extra ?? [])];
  if (q.minSqft !== null) extra.push({ range: { sqft: { gte: q.minSqft } } });
  const shown = displayUnit(q.stay);
  return {
    location: q.location,
    polygon: q.polygon,
    filters: q.filters,
    stay: q.stay,
    // Limits are monthly; a short stay's price is shown per night, so they are compared per night.
    price: displayLimits(q.monthly.min ?? undefined, q.monthly.max ?? undefined, 'per_month', shown),
    minRating: q.minRating,
    // The unit order only matters for the price stream of price-sorted pages.
    sort: isPriceSort(sort) ? sort : 'price_asc',
    extra,
    text: q.text,
    budget: q.budget,
  };
}
