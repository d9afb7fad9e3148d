/** get_flex_options_tool — GET /api/public/homes/{slug}/flex-options (spec: "Flex options"). */
import { flexOptions } from '../kernel/engine/flex';
import { loadHome } from '../homes/repository';
import { defineTool, READ_ONLY } from './tool';

const inputSchema = {
  type: 'object',
  properties: { home_slug: { type: 'string', minLength: 1, maxLength: 200, description: 'Apartment slug.' } },
  required: ['home_slug'],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    home_slug: { type: 'string' },
    available_tiers: {
      type: 'array',
      items: { type: 'object', properties: { committed_nights: { type: 'integer' } }, required: ['committed_nights'] },
    },
    eligible_for_flexible_stays: { type: 'boolean' },
    minimum_nightly_stay: { type: 'integer' },
  },
  required: ['home_slug', 'available_tiers', 'eligible_for_flexible_stays', 'minimum_nightly_stay'],
} as const;

export const getFlexOptionsTool = defineTool<{ home_slug: string }, ReturnType<typeof flexOptions>>({
  name: 'get_flex_options_tool',
  title: 'Flex tiers of an apartment',
  description:
    'Lists the Flex commitment tiers (committed_nights) an apartment accepts, so that only an accepted tier is ' +
    'quoted or booked. Flex is an open-ended stay: the guest commits to 6+ months at a lower monthly rate. An ' +
    'apartment that opts out returns eligible_for_flexible_stays false and an empty list; tiers below the ' +
    "apartment's minimum nightly stay are dropped.",
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  get: { path: '/homes/:slug/flex-options', pathParams: { slug: 'home_slug' }, query: [], summary: 'Flex tiers an apartment accepts' },
  async handler(args, { deps }) {
    const { home } = await loadHome(deps, args.home_slug);
    return { data: flexOptions(home) };
  },
});
