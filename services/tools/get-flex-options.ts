/** get_flex_options_tool — GET /api/public/homes/{slug}/flex-options (docs/contract.md, "get_flex_options_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { MINIMUM_FLEX_COMMITTED_NIGHTS, offeredTiers } from '../kernel/engine/flex';
import { NIGHTS_PER_MONTH } from '../kernel/engine/labels';
import type { HomeRecord } from '../kernel/inventory/records';
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
      items: { type: 'object', properties: { committed_nights: { type: 'integer' } }, required: ['committed_nights'], additionalProperties: false },
    },
    eligible_for_flexible_stays: { type: 'boolean' },
    minimum_nightly_stay: { type: 'integer' },
  },
  required: ['home_slug', 'available_tiers', 'eligible_for_flexible_stays', 'minimum_nightly_stay'],
  additionalProperties: false,
} as const;

export type FlexOptions = FromSchema<typeof outputSchema>;

/** The "Flex options" resource; tier rates are not shown ("Fields of a tier beyond committed_nights: not shown"). */
export function flexOptions(home: HomeRecord): FlexOptions {
  return {
    home_slug: home.slug,
    available_tiers: offeredTiers(home).map((t) => ({ committed_nights: t.committed_nights })),
    eligible_for_flexible_stays: home.flex_eligible,
    minimum_nightly_stay: home.minimum_nightly_stay,
  };
}

export const getFlexOptionsTool = defineTool<FromSchema<typeof inputSchema>, FlexOptions>({
  name: 'get_flex_options_tool',
  title: 'Flex tiers of an apartment',
  description:
    'Lists the Flex commitment tiers (committed_nights) an apartment accepts, so that only an accepted tier is ' +
    `quoted or booked. Flex is an open-ended stay: the guest commits to ${MINIMUM_FLEX_COMMITTED_NIGHTS / NIGHTS_PER_MONTH}+ months at a lower monthly rate. An ` +
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
