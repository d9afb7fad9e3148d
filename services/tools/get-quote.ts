/** get_quote_tool — GET /api/public/homes/{slug}/quote (docs/contract.md, "get_quote_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { badRequest } from '../kernel/errors';
import { priceStay } from '../kernel/engine/pricing';
import { checkFlexTier, checkStay, MAX_PETS_PER_STAY, petsOverLimit } from '../kernel/engine/stay-check';
import { mediaItems } from '../homes/photos';
import { loadHome } from '../homes/repository';
import { quoteOutputSchema } from '../contracts/quote-output';
import { readStay } from '../stays/read-stay';
import { stayArgProperties } from '../stays/stay-arguments';
import { stayRequestOf } from '../stays/stay-dates';
import { QUOTE_STAY_POLICY } from '../stays/stay-policies';
import { defineTool, READ_ONLY } from './tool';
import { pricingSpan } from '../kernel/tracing';

const inputSchema = {
  type: 'object',
  properties: {
    home_slug: { type: 'string', minLength: 1, maxLength: 200, description: 'Apartment slug.' },
    ...stayArgProperties,
    cats: { type: 'integer', minimum: 0, maximum: MAX_PETS_PER_STAY, default: 0, description: 'Number of cats; omit or 0 for none.' },
    dogs: { type: 'integer', minimum: 0, maximum: MAX_PETS_PER_STAY, default: 0, description: 'Number of dogs; omit or 0 for none.' },
  },
  required: ['home_slug', 'start_date', 'end_date'],
  additionalProperties: false,
} as const;

type Args = FromSchema<typeof inputSchema>;
export type Quote = FromSchema<typeof quoteOutputSchema>;

export const GUARANTEE = "Every stay is backed by the operator's guarantee.";

export const getQuoteTool = defineTool<Args, Quote>({
  name: 'get_quote_tool',
  title: 'Price quote for a stay',
  description:
    'Anonymous, date-specific quote for one apartment: the all-in display price to quote (all fees except taxes), ' +
    'the stay length, and a charge schedule of totals (checkout, monthly, final month, deferred, whole-stay total). ' +
    'Fixed stay: start_date and end_date. Flex: end_date "indefinite" with a committed_nights tier the apartment ' +
    `accepts (get_flex_options_tool). Optional cats/dogs (at most ${MAX_PETS_PER_STAY} pets together) are priced in. When the stay ` +
    'cannot be booked the answer is available: false with unavailable_reason (and unbookable_reason for a ' +
    'date-specific calendar block), not a price.',
  inputSchema,
  outputSchema: quoteOutputSchema,
  annotations: READ_ONLY,
  get: {
    path: '/homes/:slug/quote',
    pathParams: { slug: 'home_slug' },
    renames: { check_in: 'start_date', check_out: 'end_date' },
    query: ['cats', 'dogs', 'committed_nights'],
    summary: 'Price quote for one apartment and stay',
  },
  async handler(args, { deps, today }) {
    const pets = { cats: args.cats ?? 0, dogs: args.dogs ?? 0 };
    const overLimit = petsOverLimit(pets);
    if (overLimit) throw badRequest('invalid_parameters', overLimit);
    const stay = stayRequestOf(readStay(args, today, QUOTE_STAY_POLICY));
    if (!stay) throw badRequest('invalid_parameters', 'start_date and end_date are required.');
    const { home, property } = await loadHome(deps, args.home_slug);
    // An unoffered tier is refused, not priced: the tier determines the discount (docs/contract.md, "Dates" rule 4, get_quote_tool rule 6).
    const tierCheck = stay.kind === 'flex' ? checkFlexTier(home, stay.committed_nights) : null;
    if (tierCheck && !tierCheck.available) {
      throw badRequest('tier_not_offered', `${tierCheck.unavailable_reason} Check get_flex_options_tool for "${home.slug}".`);
    }
    const media = mediaItems(home, property, deps.config.publicBaseUrl);
    const common = {
      home_slug: home.slug,
      currency: 'USD' as const,
      pet_policy: { cats_allowed: home.cats_allowed, dogs_allowed: home.dogs_allowed },
      guarantee: GUARANTEE,
      media,
      widget_hero_image_url: media[0]?.widget_url ?? null,
    };
    const check = checkStay(home, stay, pets, today);
    if (!check.available) {
      return { data: { ...common, ...check } };
    }
    const pricing = pricingSpan(1, () => priceStay(home, stay, pets));
    return { data: { ...common, available: true, ...pricing } };
  },
});
