/** get_market_filters_tool — GET /api/public/market-filters (spec: "Market filter options"). */
import type { FromSchema } from 'json-schema-to-ts';
import type { MarketRecord } from '../kernel/inventory/records';
import { SEARCHABLE } from '../kernel/store/searchable';
import { FLAG_FIELDS } from '../search/shared/filters';
import { resolveLocation } from '../search/shared/location';
import { homesTransport, type AggregationRequest } from '../search/shared/search-transport';
import { SEARCH_SORTS } from '../search/shared/sorts';
import { placeSchema } from '../contracts/output-pieces';
import { defineTool, READ_ONLY } from './tool';

const inputSchema = {
  type: 'object',
  properties: { market: { type: 'string', minLength: 1, maxLength: 200, description: 'A market or display-city slug.' } },
  required: ['market'],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    market: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'], additionalProperties: false },
    cities: { type: 'array', items: placeSchema, description: 'Display cities with apartments search can return.' },
    bedrooms: { type: 'array', items: { type: 'integer' }, description: 'Bedroom counts that have published apartments (0 = studio).' },
    amenities: {
      type: 'array',
      description: 'Filters with at least one matching apartment; `filter` is the search argument to set to true.',
      items: {
        type: 'object',
        properties: { label: { type: 'string' }, filter: { type: 'string' } },
        required: ['label', 'filter'],
        additionalProperties: false,
      },
    },
    min_bathrooms: { type: 'array', items: { type: 'number' }, description: 'Values of min_bathrooms that match apartments.' },
    price_range: {
      type: 'object',
      description: 'Lowest and highest base monthly rent listed (USD, before discounts); null without apartments.',
      properties: { min: { type: ['integer', 'null'] }, max: { type: ['integer', 'null'] } },
      required: ['min', 'max'],
      additionalProperties: false,
    },
    neighborhoods: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' } },
        required: ['id', 'slug', 'name'],
        additionalProperties: false,
      },
    },
    sort_options: { type: 'array', items: { type: 'string' } },
  },
  required: ['market', 'cities', 'bedrooms', 'amenities', 'min_bathrooms', 'price_range', 'neighborhoods', 'sort_options'],
  additionalProperties: false,
} as const;

export type MarketFilters = FromSchema<typeof outputSchema>;

const LABELS: Record<keyof typeof FLAG_FIELDS, string> = {
  pets: 'Pets allowed',
  cats: 'Cats allowed',
  dogs: 'Dogs allowed',
  parking: 'Parking',
  pool: 'Pool',
  gym: 'Fitness center',
  in_unit_laundry: 'In-unit laundry',
  air_conditioned: 'Air conditioning',
  balcony: 'Balcony',
  elevator: 'Elevator',
  first_floor_unit: 'Ground floor',
  self_check_in: 'Self check-in',
  deals_only: 'Special offers',
};

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
    bedrooms: keys('bedrooms').map(Number).sort((a, b) => a - b),
    amenities: (Object.keys(LABELS) as Array<keyof typeof LABELS>)
      .filter((arg) => (flags[arg]?.doc_count ?? 0) > 0)
      .map((arg) => ({ label: LABELS[arg], filter: arg })),
    min_bathrooms: keys('bathrooms').map(Number).sort((a, b) => a - b),
    price_range: { min: value('min_rent'), max: value('max_rent') },
    neighborhoods: market.neighborhoods.filter((n) => neighborhoods.has(n.id)).map((n) => ({ id: n.id, slug: n.slug, name: n.name })),
    sort_options: [...SEARCH_SORTS],
  };
}

export const getMarketFiltersTool = defineTool<FromSchema<typeof inputSchema>, MarketFilters>({
  name: 'get_market_filters_tool',
  title: 'Filter options of a market',
  description:
    'Lists the filter values that match apartments in a market right now, so a search never asks for something ' +
    'that cannot match: display cities, bedroom counts (0 = studio), amenity filters ({label, filter}: set `filter` ' +
    'to true in a search), bathroom minimums, the base monthly rent range, neighborhoods, and the sort_by values of ' +
    'search_apartments_tool. Pass a market or display-city slug (a city answers for its whole market).',
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  get: { path: '/market-filters', query: ['market'], summary: 'Filter options of a market, from live inventory' },
  async handler(args, { deps }) {
    const { market } = await resolveLocation(deps, { market: args.market });
    const data = await deps.aggregates.get(`market-filters:${market.slug}`, async () => {
      const { aggregations } = await homesTransport(deps, { market: market.slug }).aggregate(buildMarketFiltersBody(market.slug));
      return shapeMarketFilters(market, aggregations);
    });
    return { data };
  },
});
