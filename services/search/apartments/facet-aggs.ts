/**
 * The facet counts of a search (docs/contract.md, "Facets"), as aggregations on a query of the search's
 * clauses without its bedroom bounds, rating threshold and price limits (the facets' scope), then each
 * facet with every condition but its own: on the search's own counting request when it has none of
 * the three (../shared/search-body.ts, aggregationsApart), else on a search of their own sent beside
 * it (facetCountBody). So each count
 * is the total_count of the search with that one argument changed, counted by Elasticsearch over the
 * same clauses the search sends (the price limits of a fixed stay included: its straddlers that pass
 * are named, as in the page). The price facet's first half is here too: the spread of the stay's
 * indexed price, from which ./facet-price-edges.ts draws the buckets that ./facet-price-counts.ts counts.
 */
import type { estypes } from '@elastic/elasticsearch';
import { FLAG_FIELDS, type SharedFilters } from '../shared/filters';
import { fixedPriceClauses, matchClauses, ratingClauses, type SearchAggregations } from '../shared/search-body';
import type { SearchParams } from '../shared/search-params';
import { exactPriceClauses } from '../shared/stay-clauses';
import { indexedPriceOf } from '../shared/indexed-price';
import { GUEST_RATING_BUCKETS, GUEST_RATING_NAMES } from '../../kernel/limits/rating';
import { spreadInterval } from './facet-price-edges';

type Query = estypes.QueryDslQueryContainer;

/** The name of the facets' aggregation among the search's own (the map's clusters). */
export const FACETS_AGG = 'facets';

/** The search's clauses in four parts: what every facet keeps, and the three a facet drops for itself. */
export interface FacetScope {
  base: Query[];
  bedrooms: Query[];
  rating: Query[];
  price: Query[];
}

const NO_LIMITS = { min: null, max: null };

/** `passing`: a fixed stay's straddlers that pass its price limits (exact-search.ts), as the page names them. */
export function facetScope(p: SearchParams, passing: readonly string[] | undefined): FacetScope {
  const { min_bedrooms, max_bedrooms, ...filters } = p.filters;
  const bounded = min_bedrooms !== undefined || max_bedrooms !== undefined;
  return {
    base: matchClauses({ ...p, filters: filters as SharedFilters, minRating: null, price: NO_LIMITS }),
    bedrooms: bounded ? [{ range: { bedrooms: { gte: min_bedrooms, lte: max_bedrooms } } }] : [],
    rating: ratingClauses(p.minRating),
    price: [...exactPriceClauses(p.stay, p.price), ...fixedPriceClauses(p, passing)],
  };
}

export const all = (...parts: Query[][]): Query => ({ bool: { filter: parts.flat() } });

/** What the price facet needs to draw its buckets: the least and greatest indexed price, or a fixed stay's bounds by steps. */
export function priceSpreadAggs(p: SearchParams): SearchAggregations {
  const price = indexedPriceOf(p.stay);
  switch (price.kind) {
    case 'exact':
      return { low: { min: { field: price.field } }, high: { max: { field: price.field } } };
    case 'nested':
      return {
        nested: {
          nested: { path: price.path },
          aggs: { held: { filter: all(price.filter), aggs: { low: { min: { field: price.field } }, high: { max: { field: price.field } } } } },
        },
      };
    case 'band': {
      const interval = spreadInterval(p.stay);
      return {
        lo: { histogram: { field: price.lo, interval, min_doc_count: 1 } },
        hi: { histogram: { field: price.hi, interval, min_doc_count: 1 } },
      };
    }
  }
}

/** Without bedroom bounds, rating threshold or price limits the search's own query is every facet's scope. */
export function countedOnOwnQuery(s: FacetScope): boolean {
  return s.bedrooms.length + s.rating.length + s.price.length === 0;
}

/** The aggregations of every facet, under FACETS_AGG, each with the conditions of the others: counted over the query they ride on, the facets' scope. */
export function facetAggs(p: SearchParams, s: FacetScope): SearchAggregations {
  const flags = Object.fromEntries(Object.entries(FLAG_FIELDS).map(([arg, field]) => [arg, all(s.bedrooms, s.rating, s.price, [{ term: { [field]: true } }])]));
  const ratings = Object.fromEntries(GUEST_RATING_NAMES.map((name) => [name, all(ratingClauses(GUEST_RATING_BUCKETS[name]))]));
  return {
    [FACETS_AGG]: {
      filter: { match_all: {} },
      aggs: {
        filters: { filters: { filters: flags } },
        bedrooms: { filter: all(s.rating, s.price), aggs: { counts: { histogram: { field: 'bedrooms', interval: 1, min_doc_count: 1 } } } },
        guest_rating: { filter: all(s.bedrooms, s.price), aggs: { counts: { filters: { filters: ratings } } } },
        price: { filter: all(s.bedrooms, s.rating), aggs: priceSpreadAggs(p) },
      },
    },
  };
}

/**
 * The facets' own search, when the search has conditions a facet drops: its query is the search's
 * clauses without them (the facets' scope), so each clause (a polygon among them) runs once, as a
 * query, beside the search's; no hits, no total. A `global` bucket narrowed to the scope ran the
 * polygon again over every home of the index (docs/decisions.md, "Facet counts").
 */
export function facetCountBody(p: SearchParams, s: FacetScope): estypes.SearchRequest {
  return { size: 0, track_total_hits: false, query: all(s.base), aggs: facetAggs(p, s) };
}
