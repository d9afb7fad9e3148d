/**
 * Which markets and display cities search can return a home in right now (spec: "A market or
 * city is listed only while at least one apartment can be returned by search"): one ES
 * aggregation over bookable homes, built and read here by pure functions. list_markets_tool sends
 * it through the search transport (search/ stands on deps.ts, which stands on markets/: markets/
 * cannot import it).
 */
import type { estypes } from '@elastic/elasticsearch';
import { SEARCHABLE } from '../kernel/store/searchable';

export interface ListedPlaces {
  /** market slug → city slugs with at least one searchable home, and the market's home count. */
  markets: Map<string, { homes: number; cities: Map<string, number> }>;
}

export function buildListedPlacesBody(): estypes.SearchRequest & { size: 0 } {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [SEARCHABLE] } },
    aggs: {
      markets: {
        terms: { field: 'market_slug', size: 1000 },
        aggs: { cities: { terms: { field: 'city_slug', size: 1000 } } },
      },
    },
  };
}

interface Bucket {
  key: string;
  doc_count: number;
  cities?: { buckets: Bucket[] };
}

export function parseListedPlaces(aggs: unknown): ListedPlaces {
  const buckets = ((aggs as { markets?: { buckets?: Bucket[] } })?.markets?.buckets ?? []) as Bucket[];
  return {
    markets: new Map(
      buckets.map((m) => [
        m.key,
        { homes: m.doc_count, cities: new Map((m.cities?.buckets ?? []).map((c) => [c.key, c.doc_count])) },
      ]),
    ),
  };
}
