/**
 * The map's clusters (docs/contract.md, search_apartments_on_map rule 3): a viewport's matches in web-map tiles by
 * Elasticsearch (`geotile_grid`), each with its count, centroid, its tile's bounds and its
 * cheapest all-in price, counted with the total beside the pins, in the same round trip. `clusterAggs` builds the
 * aggregation, `readClusters` shapes the answer; both pure.
 *
 * The cheapest price is the quote's figure wherever the index holds it exactly (undated, move-in
 * date alone, Flex: a `min`). A fixed stay's price is not in the index, only bounds of it
 * (../shared/indexed-price.ts): each tile returns its few homes of least lower bound, the service
 * prices them exactly, and the least exact price is the tile's cheapest when no other home of the
 * tile can be cheaper (the last lower bound seen is not below it). Otherwise the tile says only a
 * lower bound, under another name (docs/decisions.md, "The map's viewport and clusters").
 */
import type { estypes } from '@elastic/elasticsearch';
import { indexedPriceOf } from '../shared/indexed-price';
import { hitDocument } from '../shared/hit-fields';
import { displayUnit, type PriceLimits, type PriceUnit } from '../shared/search-params';
import type { PricedHome } from '../shared/exact-search';
import type { StayDates } from '../../stays/stay-dates';
import { clusterPrecision, tileBounds, tilesSpanned, type Viewport } from '../shared/viewport';

export const CLUSTER_AGG = 'clusters';
/** Homes of least lower bound each tile returns, for a fixed stay's exact cheapest price. */
export const CLUSTER_HEADS = 8;

type Aggregations = Record<string, estypes.AggregationsAggregationContainer>;

/** The aggregation of a tile's cheapest price, by what the index holds of the stay's price. */
function cheapestAggs(stay: StayDates): Aggregations {
  const price = indexedPriceOf(stay);
  switch (price.kind) {
    case 'exact':
      return { cheapest: { min: { field: price.field } } };
    case 'nested':
      return {
        tiers: {
          nested: { path: price.path },
          aggs: { held: { filter: { bool: { filter: price.filter } }, aggs: { cheapest: { min: { field: price.field } } } } },
        },
      };
    case 'band':
      return {
        heads: {
          top_hits: {
            size: CLUSTER_HEADS,
            // A home without the cell (an index some days old) comes first, as in the price stream: it is priced.
            sort: [{ [price.lo]: { order: 'asc', missing: 0, unmapped_type: 'integer' } }, { home_id: 'asc' }],
            // Read from the card (../shared/hit-fields.ts), with the bound each head was sorted by.
            stored_fields: ['_none_'],
            docvalue_fields: ['card', price.lo],
          },
        },
      };
  }
}

/**
 * The clusters of the viewport's matching homes, at the precision its zoom gives. `stay` null: a
 * window of move-in dates, whose homes each have their own stay; its clusters carry no price
 * (docs/decisions.md, "A window of move-in dates").
 */
export function clusterAggs(stay: StayDates | null, v: Viewport): Aggregations {
  const precision = clusterPrecision(v);
  return {
    [CLUSTER_AGG]: {
      // Every tile the viewport touches may be a bucket, so none is dropped and the counts add up to the total.
      geotile_grid: { field: 'location', precision, size: tilesSpanned(v, precision) },
      // A cluster's bounds are its tile's (../shared/viewport.ts tileBounds): a geo_bounds of its homes cost as much as the grid itself.
      aggs: { centroid: { geo_centroid: { field: 'location' } }, ...(stay ? cheapestAggs(stay) : {}) },
    },
  };
}

export interface Cluster {
  /** The tile, `zoom/x/y`. */
  tile: string;
  count: number;
  /** The centroid of its homes. */
  latitude: number;
  longitude: number;
  /** Its tile's rectangle, inside the viewport: every home of the cluster lies in it, and no other match. */
  bounds: { south: number; west: number; north: number; east: number };
  /** The least all-in price of its homes for the search's stay, as their quotes give it, when known exactly. */
  cheapest_display_price?: number;
  /** Instead, when only a bound is known (a fixed stay): no home of the cluster is cheaper than this. */
  cheapest_display_price_at_least?: number;
  display_price_unit: PriceUnit;
}

interface Point {
  lat: number;
  lon: number;
}

interface Head {
  fields?: Record<string, unknown>;
  _source?: unknown;
}

/** One bucket as Elasticsearch answers it (only what is read). */
interface Bucket {
  key: string;
  doc_count: number;
  centroid?: { location?: Point };
  cheapest?: { value: number | null };
  tiers?: { held?: { cheapest?: { value: number | null } } };
  heads?: { hits?: { hits?: Head[] } };
}

/** Exact pricing of a head home, or null when the search may price no more homes. */
export type HeadPrice = (home: PricedHome) => number | null;

/** A fixed stay's cheapest price in a tile: exact when its heads settle it, else a lower bound. */
function bandCheapest(
  b: Bucket,
  lo: string,
  limits: PriceLimits,
  price: HeadPrice,
): Pick<Cluster, 'cheapest_display_price' | 'cheapest_display_price_at_least'> {
  const heads = b.heads?.hits?.hits ?? [];
  const boundOf = (h: Head): number => {
    const v = h.fields?.[lo];
    return Array.isArray(v) && typeof v[0] === 'number' ? v[0] : 0;
  };
  // Every home of the tile meets the search's min_price, and every home after the heads has a lower bound at least the last head's.
  const floor = (h: Head | undefined): number => Math.max(h === undefined ? 0 : boundOf(h), limits.min ?? 0);
  const prices: number[] = [];
  for (const h of heads) {
    const p = price(hitDocument<PricedHome>(h));
    if (p === null) return { cheapest_display_price_at_least: floor(heads[0]) };
    prices.push(p);
  }
  if (prices.length === 0) return { cheapest_display_price_at_least: floor(undefined) };
  const least = Math.min(...prices);
  const unseen = floor(heads[heads.length - 1]);
  return b.doc_count <= heads.length || least <= unseen ? { cheapest_display_price: least } : { cheapest_display_price_at_least: unseen };
}

/** The clusters of a search answer's aggregations, largest first (then by tile); `priced` false: a window's, with no price. */
export function readClusters(
  aggregations: Record<string, unknown> | undefined,
  v: Viewport,
  stay: StayDates,
  limits: PriceLimits,
  price: HeadPrice,
  priced = true,
): Cluster[] {
  const buckets = ((aggregations?.[CLUSTER_AGG] as { buckets?: Bucket[] } | undefined)?.buckets ?? []).filter((b) => b.doc_count > 0);
  const indexed = indexedPriceOf(stay);
  const unit = displayUnit(stay);
  const clusters = buckets.map((b): Cluster => {
    const c = b.centroid?.location;
    const box = tileBounds(b.key, v);
    let cheapest: Pick<Cluster, 'cheapest_display_price' | 'cheapest_display_price_at_least'>;
    if (!priced) cheapest = {};
    else if (indexed.kind === 'band') cheapest = bandCheapest(b, indexed.lo, limits, price);
    else {
      const value = indexed.kind === 'exact' ? b.cheapest?.value : b.tiers?.held?.cheapest?.value;
      cheapest = typeof value === 'number' ? { cheapest_display_price: value } : {};
    }
    return {
      tile: b.key,
      count: b.doc_count,
      latitude: c?.lat ?? 0,
      longitude: c?.lon ?? 0,
      bounds: box ?? { south: c?.lat ?? 0, west: c?.lon ?? 0, north: c?.lat ?? 0, east: c?.lon ?? 0 },
      ...cheapest,
      display_price_unit: unit,
    };
  });
  return clusters.sort((a, b) => b.count - a.count || (a.tile < b.tile ? -1 : a.tile > b.tile ? 1 : 0));
}
