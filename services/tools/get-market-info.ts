/** get_market_info — GET /api/public/market-info (docs/contract.md, "get_market_info"). */
import type { FromSchema } from 'json-schema-to-ts';
import type { Deps } from '../deps';
import { loadHome } from '../homes/repository';
import { resolveLocation } from '../search/shared/location';
import { readMarketStats } from '../search/markets/market-searches';
import { marketInfoOutputSchema, type MarketInfo } from '../contracts/market-output';
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

type HomeContextOut = NonNullable<MarketInfo['home']>;

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
  outputSchema: marketInfoOutputSchema,
  annotations: READ_ONLY,
  get: { path: '/market-info', query: ['market'], renames: { home: 'home_slug' }, summary: 'Market statistics, optionally with one apartment’s neighborhood' },
  async handler(args, { deps }) {
    const { market } = await resolveLocation(deps, { market: args.market });
    const [stats, home] = await Promise.all([
      readMarketStats(deps, market),
      args.home_slug !== undefined ? homeContext(deps, args.home_slug) : Promise.resolve(null),
    ]);
    return { data: home ? { ...stats, home } : stats };
  },
});
