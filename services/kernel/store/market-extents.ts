/**
 * Each market's extent: the bounding box of its homes' locations, as search shows them under one index
 * generation (./index-generation.ts). A search placed by a shape and no market reads only the shards of
 * the markets whose extent its shape's box meets (docs/decisions.md, "A shape reads the shards of its
 * markets"). The extents are one aggregation (a terms on `market_slug`, a `geo_bounds` under it) read
 * after a generation was read that is not `applying`: they then bound every home search shows for as
 * long as that generation stays, since every indexer write moves it. While a run writes, or when the
 * generation cannot be read, there are none and the search reads every shard.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Rectangle } from '../map-tiles';
import type { GenerationReader } from './generation-reader';

export interface MarketExtent {
  market: string;
  box: Rectangle;
}

/** More markets than any inventory has: a terms aggregation leaves out the buckets past its size. */
const MAX_MARKETS = 10_000;

/** The aggregation that reads the extents, over every shard of the homes alias. */
export function marketExtentsBody(): estypes.SearchRequest & { size: 0 } {
  return {
    size: 0,
    track_total_hits: false,
    aggs: { markets: { terms: { field: 'market_slug', size: MAX_MARKETS }, aggs: { extent: { geo_bounds: { field: 'location', wrap_longitude: false } } } } },
  };
}

interface ExtentBucket {
  key: string;
  extent?: { bounds?: { top_left: { lat: number; lon: number }; bottom_right: { lat: number; lon: number } } };
}

/** The extents an answer to marketExtentsBody holds; a market without located homes has none. */
export function parseMarketExtents(aggregations: Record<string, unknown> | undefined): MarketExtent[] {
  const buckets = (aggregations?.markets as { buckets?: ExtentBucket[] } | undefined)?.buckets ?? [];
  return buckets.flatMap((b) => {
    const bounds = b.extent?.bounds;
    if (!bounds) return [];
    return [
      { market: String(b.key), box: { south: bounds.bottom_right.lat, west: bounds.top_left.lon, north: bounds.top_left.lat, east: bounds.bottom_right.lon } },
    ];
  });
}

/** The extents under the current generation, read once per generation. */
export class MarketExtents {
  private kept: { n: number; extents: Promise<readonly MarketExtent[]> } | null = null;

  constructor(
    private readonly reader: Pick<GenerationReader, 'read'>,
    private readonly read: () => Promise<readonly MarketExtent[]>,
  ) {}

  /** The extents bounding every home search shows now; null when they cannot be known (a run writing, no generation). */
  async current(): Promise<readonly MarketExtent[] | null> {
    const at = await this.reader.read();
    if (at === null || at.applying) return null;
    if (this.kept === null || this.kept.n < at.n) {
      const extents = this.read();
      this.kept = { n: at.n, extents };
      // A failed read is not kept: the next search reads again.
      extents.catch(() => {
        if (this.kept?.extents === extents) this.kept = null;
      });
      return extents;
    }
    // A generation older than the one kept (a slow read): the kept extents are newer, read again for it alone.
    if (this.kept.n > at.n) return this.read();
    return this.kept.extents;
  }
}
