/**
 * Market info's Elasticsearch request and its reading (docs/contract.md, "get_market_info"): the market's
 * searchable homes counted, their average base rent by bedroom count and the neighborhoods with
 * the most of them, built and shaped by pure functions (sent by ./market-searches.ts).
 */
import type { MarketRecord } from '../../kernel/inventory/records';
import { SEARCHABLE } from '../../kernel/store/searchable';
import type { MarketInfo } from '../../contracts/market-output';
import type { AggregationRequest } from '../shared/search-transport';

/** Market info without an apartment's neighborhood (that is read from the home's records). */
export type MarketStats = Omit<MarketInfo, 'home'>;

export function buildMarketInfoBody(marketSlug: string): AggregationRequest {
  return {
    size: 0,
    track_total_hits: true,
    query: { bool: { filter: [SEARCHABLE, { term: { market_slug: marketSlug } }] } },
    aggs: {
      bedrooms: { terms: { field: 'bedrooms', size: 50, order: { _key: 'asc' } }, aggs: { rent: { avg: { field: 'monthly_rate' } } } },
      neighborhoods: { terms: { field: 'neighborhood_id', size: 5 } },
    },
  };
}

type Bucket = { key: string | number; doc_count: number; rent?: { value: number | null } };

export function shapeMarketInfo(market: MarketRecord, total: number, aggs: Record<string, unknown>): MarketStats {
  const buckets = (name: string) => (aggs[name] as { buckets?: Bucket[] } | undefined)?.buckets ?? [];
  const byId = new Map(market.neighborhoods.map((n) => [n.id, n]));
  return {
    market: { slug: market.slug, name: market.name, state: market.state },
    inventory_count: total,
    average_rent_by_bedroom: buckets('bedrooms').map((b) => ({
      bedrooms: Number(b.key),
      average_monthly_rent: Math.round(b.rent?.value ?? 0),
      apartments: b.doc_count,
    })),
    popular_neighborhoods: buckets('neighborhoods').flatMap((b) => {
      const n = byId.get(String(b.key));
      return n ? [{ id: n.id, slug: n.slug, name: n.name, available_apartments: b.doc_count }] : [];
    }),
  };
}
