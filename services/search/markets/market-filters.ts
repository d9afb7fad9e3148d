/**
 * The market filters' Elasticsearch request and its reading (docs/contract.md, "get_market_filters_tool"): one
 * aggregation over the market's searchable homes, built and shaped by pure functions (sent by
 * ./market-searches.ts).
 */
import type { MarketRecord } from '../../kernel/inventory/records';
import { SEARCHABLE } from '../../kernel/store/searchable';
import type { MarketFilters } from '../../contracts/market-output';
import { FLAG_FIELDS, FLAG_LABELS } from '../../kernel/store/flag-fields';
import type { AggregationRequest } from '../shared/search-transport';
import { SEARCH_SORTS } from '../shared/sorts';

/** One aggregation request over the market's searchable homes. */
export function buildMarketFiltersBody(marketSlug: string): AggregationRequest {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [SEARCHABLE, { term: { market_slug: marketSlug } }] } },
    aggs: {
      cities: { terms: { field: 'city_slug', size: 500 } },
      bedrooms: { terms: { field: 'bedrooms', size: 50 } },
      bathrooms: { terms: { field: 'bathrooms', size: 50 } },
      neighborhoods: { terms: { field: 'neighborhood_id', size: 1000 } },
      min_rent: { min: { field: 'monthly_rate' } },
      max_rent: { max: { field: 'monthly_rate' } },
      flags: { filters: { filters: Object.fromEntries(Object.entries(FLAG_FIELDS).map(([arg, field]) => [arg, { term: { [field]: true } }])) } },
    },
  };
}

type Buckets = { buckets: Array<{ key: string | number; doc_count: number }> };

export function shapeMarketFilters(market: MarketRecord, aggs: Record<string, unknown>): MarketFilters {
  const keys = (name: string) => ((aggs[name] as Buckets | undefined)?.buckets ?? []).map((b) => b.key);
  const cities = new Set(keys('cities'));
  const neighborhoods = new Set(keys('neighborhoods'));
  const flags = (aggs.flags as { buckets?: Record<string, { doc_count: number }> } | undefined)?.buckets ?? {};
  const value = (name: string) => (aggs[name] as { value: number | null } | undefined)?.value ?? null;
  return {
    market: { slug: market.slug },
    cities: market.cities.filter((c) => cities.has(c.slug)).map((c) => ({ slug: c.slug, name: c.name, state: c.state })),
    bedrooms: keys('bedrooms')
      .map(Number)
      .sort((a, b) => a - b),
    amenities: (Object.keys(FLAG_LABELS) as Array<keyof typeof FLAG_LABELS>)
      .filter((arg) => (flags[arg]?.doc_count ?? 0) > 0)
      .map((arg) => ({ label: FLAG_LABELS[arg], filter: arg })),
    min_bathrooms: keys('bathrooms')
      .map(Number)
      .sort((a, b) => a - b),
    price_range: { min: value('min_rent'), max: value('max_rent') },
    neighborhoods: market.neighborhoods.filter((n) => neighborhoods.has(n.id)).map((n) => ({ id: n.id, slug: n.slug, name: n.name })),
    sort_options: [...SEARCH_SORTS],
  };
}
