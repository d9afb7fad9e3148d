/**
 * The facets of a search (docs/contract.md, "Facets"): every boolean filter, bedroom count, guest
 * rating bucket and price bucket with the total_count the search would have with it. Counted by
 * Elasticsearch on the facets' scope (./facet-aggs.ts), and, for the price, one more
 * (./facet-price-counts.ts); a fixed stay's homes whose price bounds straddle a bucket edge are priced
 * exactly by the search's price book.
 */
import { FLAG_FIELDS } from '../shared/filters';
import type { ExactSearch } from '../shared/exact-search';
import { displayUnit, type PriceUnit } from '../shared/search-params';
import type { SortValues } from '../shared/search-body';
import { hitDocument } from '../shared/hit-fields';
import type { HomeDocument } from '../../kernel/store/home-document';
import { GUEST_RATING_NAMES, type GuestRatingBucket } from '../../kernel/limits/rating';
import { FACET_MAX_PRICED } from '../../kernel/limits/facets';
import { DEFAULT_SEARCH_MAX_PRICED } from '../../kernel/config';
import { FACETS_AGG, facetScope } from './facet-aggs';
import { bandSpread, drawEdges, edgeQuantum, priceBuckets, spreadInterval, type HistogramBucket, type PriceSpread } from './facet-price-edges';
import { bucketCounts, bucketOf, priceCountBody, UNCERTAIN_BATCH } from './facet-price-counts';

export type FacetFilter = keyof typeof FLAG_FIELDS;

export interface Facets {
  filters: Array<{ filter: FacetFilter; count: number }>;
  bedrooms: Array<{ bedrooms: number; count: number }>;
  guest_rating: Array<{ guest_rating: GuestRatingBucket; count: number }>;
  price: { unit: PriceUnit; buckets: Array<{ min: number; max: number; count: number }> };
}

type Count = { doc_count: number };
type Stat = { value: number | null };
interface FacetAnswer {
  doc_count: number;
  filters: { buckets: Record<string, Count> };
  bedrooms: { counts: { buckets: Array<{ key: number; doc_count: number }> } };
  guest_rating: { counts: { buckets: Record<string, Count> } };
  price: Count & {
    low?: Stat;
    high?: Stat;
    nested?: { held: { low: Stat; high: Stat } };
    lo?: { buckets: HistogramBucket[] };
    hi?: { buckets: HistogramBucket[] };
  };
}

/** The least and greatest price (a fixed stay: bounds) of the homes the price facet counts; null when there are none. */
function spreadOf(search: ExactSearch, price: FacetAnswer['price']): PriceSpread | null {
  const stay = search.p.stay;
  if (stay.kind === 'fixed') return bandSpread(price.lo?.buckets ?? [], price.hi?.buckets ?? [], spreadInterval(stay));
  const stats = price.nested?.held ?? { low: price.low, high: price.high };
  const [min, max] = [stats.low?.value, stats.high?.value];
  return typeof min === 'number' && typeof max === 'number' ? { min: Math.floor(min), max: Math.ceil(max) } : null;
}

/** The price facet: the buckets drawn from the spread, each counted exactly. */
async function priceFacet(search: ExactSearch, spread: PriceSpread | null, unit: PriceUnit): Promise<Facets['price']> {
  const p = search.p;
  if (spread === null) return { unit, buckets: [] };
  // A fixed stay prices the homes whose bounds straddle an edge: at most FACET_MAX_PRICED, within what the search may still price.
  const budget = p.budget ? p.budget.limit - p.budget.priced : DEFAULT_SEARCH_MAX_PRICED;
  const buckets = priceBuckets(drawEdges(spread, edgeQuantum(p.stay, unit), Math.min(FACET_MAX_PRICED, budget)), unit, displayUnit(p.stay));
  const scope = facetScope(p, undefined);
  let after: SortValues | undefined;
  let counts: number[] = [];
  for (;;) {
    const res = await search.send(priceCountBody(p, scope, buckets, after));
    if (after === undefined) counts = bucketCounts(res.aggregations as Record<string, unknown> | undefined, buckets);
    const hits = res.hits.hits;
    for (const hit of hits) {
      const amount = search.book.of(hitDocument<HomeDocument>(hit))?.price.display_price_with_discount;
      const i = amount === undefined ? -1 : bucketOf(amount, buckets);
      if (i >= 0) counts[i] += 1;
    }
    // Only a fixed stay's request returns homes (those to price), a batch at a time.
    if (p.stay.kind !== 'fixed' || hits.length < UNCERTAIN_BATCH) break;
    after = hits[hits.length - 1].sort;
  }
  // Empty buckets at either end say nothing: dropped (the counts still add up).
  const shown = buckets.map((b, i) => ({ min: b.min, max: b.max, count: counts[i] }));
  const first = shown.findIndex((b) => b.count > 0);
  const last = shown.findLastIndex((b) => b.count > 0);
  return { unit, buckets: first < 0 ? [] : shown.slice(first, last + 1) };
}

/** The facets of a search nothing can match (a stay that starts in the past): every count 0. */
export function emptyFacets(unit: PriceUnit): Facets {
  return {
    filters: (Object.keys(FLAG_FIELDS) as FacetFilter[]).map((filter) => ({ filter, count: 0 })),
    bedrooms: [],
    guest_rating: GUEST_RATING_NAMES.map((name) => ({ guest_rating: name, count: 0 })),
    price: { unit, buckets: [] },
  };
}

/** The facets, from the aggregations facetAggs made (on the search's counting request or the facets' own) and one more request for the price. */
export async function readFacets(search: ExactSearch, aggregations: Record<string, unknown> | undefined, unit: PriceUnit): Promise<Facets> {
  const scope = aggregations?.[FACETS_AGG] as FacetAnswer | undefined;
  if (!scope) throw new Error('the search did not carry the facet aggregations');
  return {
    filters: (Object.keys(FLAG_FIELDS) as FacetFilter[]).map((filter) => ({ filter, count: scope.filters.buckets[filter]?.doc_count ?? 0 })),
    bedrooms: scope.bedrooms.counts.buckets.map((b) => ({ bedrooms: b.key, count: b.doc_count })),
    guest_rating: GUEST_RATING_NAMES.map((name) => ({ guest_rating: name, count: scope.guest_rating.counts.buckets[name]?.doc_count ?? 0 })),
    price: await priceFacet(search, spreadOf(search, scope.price), unit),
  };
}
