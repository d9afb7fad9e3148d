/** get_market_info — GET /api/public/market-info (spec: "Market info", "get_market_info"). */
import type { FromSchema } from 'json-schema-to-ts';
import type { Deps } from '../deps';
import type { MarketRecord } from '../kernel/inventory/records';
import { SEARCHABLE } from '../kernel/store/searchable';
import { loadHome } from '../homes/repository';
import { resolveLocation } from '../search/shared/location';
import { homesTransport, type AggregationRequest } from '../search/shared/search-transport';
import { defineTool, READ_ONLY } from './tool';

const inputSchema = {
  type: 'object',
  properties: {
    market: { type: 'string', minLength: 1, maxLength: 200, description: 'A market or display-city slug (a city answers for its market).' },
    home_slug: { type: 'string', minLength: 1, maxLength: 200, description: "Optional apartment slug: adds that apartment's neighborhood context." },
  },
  required: ['market'],
  additionalProperties: false,
} as const;

const score = { type: 'integer', minimum: 0, maximum: 100 } as const;

const outputSchema = {
  type: 'object',
  properties: {
    market: {
      type: 'object',
      properties: { slug: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' } },
      required: ['slug', 'name', 'state'],
      additionalProperties: false,
    },
    inventory_count: { type: 'integer', description: 'Apartments search can return in the market.' },
    average_rent_by_bedroom: {
      type: 'array',
      description: "Unweighted average of each apartment's base monthly rate (USD, before discounts), by bedroom count.",
      items: {
        type: 'object',
        properties: { bedrooms: { type: 'integer' }, average_monthly_rent: { type: 'integer' }, apartments: { type: 'integer' } },
        required: ['bedrooms', 'average_monthly_rent', 'apartments'],
        additionalProperties: false,
      },
    },
    popular_neighborhoods: {
      type: 'array',
      description: 'Neighborhoods with the most apartments search can return, most first (at most 5).',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' }, available_apartments: { type: 'integer' } },
        required: ['id', 'slug', 'name', 'available_apartments'],
        additionalProperties: false,
      },
    },
    home: {
      type: 'object',
      description: 'Present only when home_slug is given. No commute time is computed.',
      properties: {
        slug: { type: 'string' },
        market: { type: 'object', properties: { slug: { type: 'string' }, name: { type: 'string' } }, required: ['slug', 'name'], additionalProperties: false },
        city: { type: 'object', properties: { slug: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' } }, required: ['slug', 'name', 'state'], additionalProperties: false },
        neighborhood: {
          type: 'object',
          properties: { id: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } },
          required: ['id', 'slug', 'name', 'description'],
          additionalProperties: false,
        },
        walk_score: score,
        walk_score_description: { type: 'string' },
        transit_score: score,
        transit_score_description: { type: 'string' },
        bike_score: score,
        bike_score_description: { type: 'string' },
      },
      required: ['slug', 'market'],
      additionalProperties: false,
    },
  },
  required: ['market', 'inventory_count', 'average_rent_by_bedroom', 'popular_neighborhoods'],
  additionalProperties: false,
} as const;

export type MarketInfo = FromSchema<typeof outputSchema>;
type HomeContextOut = NonNullable<MarketInfo['home']>;

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

export function shapeMarketInfo(market: MarketRecord, total: number, aggs: Record<string, unknown>): Omit<MarketInfo, 'home'> {
  const buckets = (name: string) => ((aggs[name] as { buckets?: Bucket[] } | undefined)?.buckets ?? []);
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

/** The home's neighborhood, place and location scores (scores absent until computed). */
async function homeContext(deps: Deps, slug: string): Promise<HomeContextOut> {
  const { home, property, market } = await loadHome(deps, slug);
  const city = market.cities.find((c) => c.slug === home.city_slug);
  const n = market.neighborhoods.find((x) => x.id === home.neighborhood_id);
  const s = property.scores;
  return {
    slug: home.slug,
    market: { slug: market.slug, name: market.name },
    ...(city ? { city: { slug: city.slug, name: city.name, state: city.state } } : {}),
    ...(n ? { neighborhood: { id: n.id, slug: n.slug, name: n.name, description: n.description } } : {}),
    ...(s.walk_score !== undefined ? { walk_score: s.walk_score, walk_score_description: s.walk_score_description ?? '' } : {}),
    ...(s.transit_score !== undefined ? { transit_score: s.transit_score, transit_score_description: s.transit_score_description ?? '' } : {}),
    ...(s.bike_score !== undefined ? { bike_score: s.bike_score, bike_score_description: s.bike_score_description ?? '' } : {}),
  };
}

export const getMarketInfoTool = defineTool<FromSchema<typeof inputSchema>, MarketInfo>({
  name: 'get_market_info',
  title: 'Market statistics',
  description:
    'Statistics of a market from live inventory: how many apartments search can return, the average base monthly ' +
    'rent by bedroom count (before discounts; quote a real stay with get_quote_tool), and the neighborhoods with the ' +
    'most availability. Pass a market or display-city slug (a city answers for its whole market); add home_slug for ' +
    "that apartment's neighborhood description and walk/transit/bike scores. No commute times.",
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  get: { path: '/market-info', query: ['market'], renames: { home: 'home_slug' }, summary: 'Market statistics, optionally with one apartment’s neighborhood' },
  async handler(args, { deps }) {
    const { market } = await resolveLocation(deps, { market: args.market });
    const [stats, home] = await Promise.all([
      deps.aggregates.get(`market-info:${market.slug}`, async () => {
        const { aggregations, total } = await homesTransport(deps, { market: market.slug }).aggregate(buildMarketInfoBody(market.slug));
        return shapeMarketInfo(market, total ?? 0, aggregations);
      }),
      args.home_slug !== undefined ? homeContext(deps, args.home_slug) : Promise.resolve(null),
    ]);
    return { data: home ? { ...stats, home } : stats };
  },
});
