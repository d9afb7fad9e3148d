/**
 * Which markets and display cities search can return a home in right now (docs/contract.md,
 * list_markets_tool rule 1: "A market or city is listed only while at least one of its homes can be
 * returned by a search"): one ES
 * aggregation over bookable homes, built and read here by pure functions (sent by
 * ./market-searches.ts).
 */
import { SEARCHABLE } from '../../kernel/store/searchable';
import type { AggregationRequest } from '../shared/search-transport';

export interface ListedPlaces {
  /** market slug → city slugs with at least one searchable home, and the market's home count. */
  markets: Map<string, { homes: number; cities: Map<string, number> }>;
}

/** What the kept listing may hold: the places of every market, with room to spare (an answer over it is computed every time). */
export const LISTED_PLACES_BYTES = 4 * 1024 * 1024;

/** The bytes a kept listing holds, as the kept answers' bound counts them: about a hundred a place. */
export function listedPlacesBytes(listed: ListedPlaces): number {
  let bytes = 64;
  for (const [market, { cities }] of listed.markets) {
    bytes += 100 + 2 * market.length;
    for (const city of cities.keys()) bytes += 100 + 2 * city.length;
  }
  return bytes;
}

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
