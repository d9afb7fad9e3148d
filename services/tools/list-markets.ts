/** list_markets_tool — GET /api/public/markets (docs/contract.md, "list_markets_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { readListedPlaces } from '../search/markets/market-searches';
import { placeSchema } from '../contracts/output-pieces';
import { defineTool, READ_ONLY } from './tool';

const inputSchema = {
  type: 'object',
  properties: {
    state: {
      type: 'string',
      pattern: '^[A-Za-z]{2}$',
      description:
        'Optional two-letter state code. Keeps markets whose own state, or the state of any of their display cities, ' +
        'matches (a metro can span state lines); each kept market still lists all its cities. Prefer matching on slugs.',
    },
  },
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    markets: {
      type: 'array',
      items: {
        type: 'object',
        properties: { ...placeSchema.properties, cities: { type: 'array', items: placeSchema } },
        required: ['slug', 'name', 'state', 'cities'],
        additionalProperties: false,
      },
    },
    count: { type: 'integer' },
  },
  required: ['markets', 'count'],
  additionalProperties: false,
} as const;

type Args = FromSchema<typeof inputSchema>;
export type MarketsList = FromSchema<typeof outputSchema>;

export const listMarketsTool = defineTool<Args, MarketsList>({
  name: 'list_markets_tool',
  title: 'List markets and display cities',
  description:
    'Lists every market (a metro region) with its display cities (the preferred search unit). Call this first to ' +
    'find the slug to pass as `market` to the search tools. Only places where search can currently return at least ' +
    'one apartment are listed. Returns {markets: [{slug, name, state, cities: [{slug, name, state}]}], count}.',
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  get: { path: '/markets', query: ['state'], summary: 'Markets and their display cities' },
  async handler(args, { deps }) {
    const listed = await readListedPlaces(deps);
    const known = await deps.markets.all();
    const records = known.filter((m) => listed.markets.has(m.slug));
    const state = args.state?.toUpperCase();
    const markets = records
      .map((m) => {
        const cities = listed.markets.get(m.slug)?.cities ?? new Map<string, number>();
        return {
          slug: m.slug,
          name: m.name,
          state: m.state,
          cities: m.cities
            .filter((c) => cities.has(c.slug))
            .map((c) => ({ slug: c.slug, name: c.name, state: c.state }))
            .sort((a, b) => a.name.localeCompare(b.name)),
        };
      })
      .filter((m) => m.cities.length > 0)
      .filter((m) => !state || m.state === state || m.cities.some((c) => c.state === state))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { data: { markets, count: markets.length } };
  },
});
