/**
 * The price facet's second half: one more request that counts the homes of each bucket with the
 * clauses the search's own min_price/max_price send (stay-clauses.ts), so each count is that search's
 * total_count. Where the index holds the exact price (undated, Flex) Elasticsearch counts them all.
 * A fixed stay's price is not in the index: a home whose bounds lie inside a bucket is counted there
 * by Elasticsearch, and the rest (bounds across an edge, or none) come back as hits and are priced
 * exactly in Node, through the search's price book and pricing budget (docs/decisions.md, "Facet counts").
 */
import type { estypes } from '@elastic/elasticsearch';
import type { SearchParams } from '../shared/search-params';
import { bandInsideClause, exactPriceClauses } from '../shared/stay-clauses';
import { STRADDLER_SOURCE, type SortValues } from '../shared/search-body';
import { hitFields } from '../shared/hit-fields';
import { all, type FacetScope } from './facet-aggs';
import type { PriceBucket } from './facet-price-edges';

type Query = estypes.QueryDslQueryContainer;

/** Homes priced per request of the uncertain ones (a page of them; the next follows only when there are more). */
export const UNCERTAIN_BATCH = 1_000;

const key = (i: number) => `b${i}`;

/** Each bucket's clause: the search's price limits at the bucket's bounds (for a fixed stay: bounds inside them). */
function bucketFilters(p: SearchParams, buckets: readonly PriceBucket[]): Record<string, Query> {
  const stay = p.stay;
  return Object.fromEntries(buckets.map((b, i) => [key(i), stay.kind === 'fixed' ? bandInsideClause(stay, b.limits) : all(exactPriceClauses(stay, b.limits))]));
}

/**
 * The request of the counts. Exact prices: the buckets' counts alone. A fixed stay: the counts of the
 * homes whose bounds lie inside a bucket, over the facet's homes (the query), and as hits, in batches,
 * the homes whose bounds do not (a post_filter, which narrows the hits after the counts), with what
 * pricing them needs. The facet's clauses (a polygon among them) run once, as the query: no `global`
 * bucket running them again over the whole index (docs/decisions.md, "Facet counts").
 */
export function priceCountBody(p: SearchParams, scope: FacetScope, buckets: readonly PriceBucket[], after?: SortValues): estypes.SearchRequest {
  const counted = all(scope.base, scope.bedrooms, scope.rating);
  const filters = bucketFilters(p, buckets);
  if (p.stay.kind !== 'fixed') {
    return { size: 0, track_total_hits: false, query: counted, aggs: { buckets: { filters: { filters } } } };
  }
  return {
    size: UNCERTAIN_BATCH,
    track_total_hits: false,
    ...hitFields(STRADDLER_SOURCE),
    query: counted,
    post_filter: { bool: { must_not: Object.values(filters) } },
    sort: [{ home_id: 'asc' }],
    ...(after ? { search_after: after } : { aggs: { buckets: { filters: { filters } } } }),
  };
}

/** The counts Elasticsearch gave each bucket, in order, from the answer of priceCountBody (its first batch, for a fixed stay). */
export function bucketCounts(aggregations: Record<string, unknown> | undefined, buckets: readonly PriceBucket[]): number[] {
  type Filters = { buckets: Record<string, { doc_count: number }> };
  const counts = (aggregations as { buckets?: Filters } | undefined)?.buckets;
  return buckets.map((_, i) => counts?.buckets[key(i)]?.doc_count ?? 0);
}

/** The bucket an exact price falls in, or -1 (between buckets, or outside them all). */
export function bucketOf(price: number, buckets: readonly PriceBucket[]): number {
  return buckets.findIndex((b) => (b.limits.min === null || price >= b.limits.min) && (b.limits.max === null || price <= b.limits.max));
}
