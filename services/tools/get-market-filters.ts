/** get_market_filters_tool — GET /api/public/market-filters (docs/contract.md, "get_market_filters_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { resolveLocation } from '../search/shared/location';
import { readMarketFilters } from '../search/markets/market-searches';
import { marketFiltersOutputSchema, type MarketFilters } from '../contracts/market-output';
import { defineTool, READ_ONLY } from './tool';

const inputSchema = {
  type: 'object',
  properties: { market: { type: 'string', minLength: 1, maxLength: 200, description: 'A market or display-city slug.' } },
  required: ['market'],
  additionalProperties: false,
} as const;

export const getMarketFiltersTool = defineTool<FromSchema<typeof inputSchema>, MarketFilters>({
  name: 'get_market_filters_tool',
  title: 'Filter options of a market',
  description:
    'Lists the filter values that match apartments in a market right now, so a search never asks for something ' +
    'that cannot match: display cities, bedroom counts (0 = studio), amenity filters ({label, filter}: set `filter` ' +
    'to true in a search), bathroom minimums, the base monthly rent range, neighborhoods, and the sort_by values of ' +
    'search_apartments_tool. Pass a market or display-city slug (a city answers for its whole market).',
  inputSchema,
  outputSchema: marketFiltersOutputSchema,
  annotations: READ_ONLY,
  get: { path: '/market-filters', query: ['market'], summary: 'Filter options of a market, from live inventory' },
  async handler(args, { deps }) {
    const { market } = await resolveLocation(deps, { market: args.market });
    return { data: await readMarketFilters(deps, market) };
  },
});
