/**
 * Which markets and display cities search can return a home in right now (docs/contract.md,
 * list_markets_tool rule 1: "A market or city is listed only while at least one of its homes can be
 * returned by a search"): one ES
 * aggregation over bookable homes, built and read here by pure functions (sent by
 * ./market-searches.ts).
 */
import { SEARCHABLE } from '../../kernel/store/searchable';
import type { AggregationRequest } from '../shared/search-transport';
import type { ListedPlaces } from '../../kernel/store/listed-places';

export function buildListedPlacesBody(): AggregationRequest {
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
    markets: new Map(buckets.map((m) => [m.key, { homes: m.doc_count, cities: new Map((m.cities?.buckets ?? []).map((c) => [c.key, c.doc_count])) }])),
  };
}
