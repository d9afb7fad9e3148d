/**
 * The availability overview's Elasticsearch request, built by a pure function (docs/contract.md,
 * "availability_overview_tool"): location, the shared filters it takes, the `nights` floor filter,
 * price bounds on the base monthly rate, a sort and a page.
 */
import type { estypes } from '@elastic/elasticsearch';
import { filterClauses, locationClauses, type SharedFilters } from '../shared/filters';
import type { ResolvedLocation } from '../shared/location';
import { sortClauses, type SearchSort } from '../shared/sorts';

export interface OverviewQuery {
  location: ResolvedLocation;
  filters: SharedFilters;
  nights?: number;
  minPrice?: number;
  maxPrice?: number;
  sort: SearchSort;
  page: number;
  perPage: number;
}

export const OVERVIEW_SOURCE = [
  'home_id',
  'slug',
  'name',
  'bedrooms',
  'bathrooms',
  'sqft',
  'city_name',
  'minimum_nightly_stay',
  'earliest_available_date',
  'windows',
];

export function buildOverviewBody(q: OverviewQuery): estypes.SearchRequest {
  const filter = [...locationClauses(q.location), ...filterClauses(q.filters)];
  // "nights": drop apartments whose baseline minimum stay (av.ms) exceeds it.
  if (q.nights !== undefined) filter.push({ range: { minimum_nightly_stay: { lte: q.nights } } });
  if (q.minPrice !== undefined || q.maxPrice !== undefined) filter.push({ range: { monthly_rate: { gte: q.minPrice, lte: q.maxPrice } } });
  return {
    // Only what the page is made of: no per-hit index name, id, score or sort values to send and parse.
    filter_path: ['hits.total', 'hits.hits._source'],
    track_total_hits: true,
    from: (q.page - 1) * q.perPage,
    size: q.perPage,
    _source: OVERVIEW_SOURCE,
    query: { bool: { filter } },
    // The overview has no stay: it orders by the base monthly rate its price limits read.
    sort: sortClauses(q.sort, (order) => ({ monthly_rate: order })),
  };
}
