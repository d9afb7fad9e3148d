/** compare_apartments_tool — tool server only (docs/contract.md, "compare_apartments_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { computeAvailability } from '../kernel/engine/availability';
import { offeredTiers } from '../kernel/engine/flex';
import { notFound } from '../kernel/errors';
import { heroPhoto } from '../kernel/inventory/photo-order';
import { findHomes, type HomeContext } from '../homes/repository';
import { mediaItems } from '../homes/photos';
import { homeUrl } from '../homes/links';
import { priceForView } from '../homes/pricing-view';
import { apartmentBasicsProperties, displayPriceProperties, mediaSchema, petPolicySchema, ratingSchema } from '../contracts/output-pieces';
import { defineTool, READ_ONLY } from './tool';
import { MEDIA_PHOTOS } from '../kernel/limits/media';
import { COMPARED_APARTMENTS } from '../kernel/limits/pages';
import { pricingSpan } from '../kernel/tracing';

const { min, max } = COMPARED_APARTMENTS;

const inputSchema = {
  type: 'object',
  properties: {
    home_slugs: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 200 },
      minItems: min,
      maxItems: max,
      uniqueItems: true,
      description: `${min} to ${max} apartment slugs, from search results.`,
    },
    include_hero_images: { type: 'boolean', default: false, description: "True also returns each apartment's hero photo as embedded image content." },
  },
  required: ['home_slugs'],
  additionalProperties: false,
} as const;

const apartmentSchema = {
  type: 'object',
  properties: {
    ...apartmentBasicsProperties,
    ...displayPriceProperties,
    eligible_for_flex: { type: 'boolean' },
    city: { type: 'string' },
    neighborhood: { type: 'string' },
    amenities: { type: 'array', items: { type: 'string' }, description: 'The apartment’s and its building’s amenities.' },
    has_parking: { type: 'boolean' },
    laundry_type: { enum: ['In Unit', 'On-Site Facility', null] },
    pet_policy: petPolicySchema,
    property: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        member_rating: ratingSchema,
      },
      required: ['name'],
      additionalProperties: false,
    },
    availability: {
      type: 'object',
      properties: {
        earliest_available_date: { type: ['string', 'null'] },
        minimum_nightly_stay: { type: 'integer' },
        bookable_windows: { type: 'integer', description: 'How many bookable windows the calendar holds; get_apartment_tool lists them.' },
      },
      required: ['earliest_available_date', 'minimum_nightly_stay', 'bookable_windows'],
      additionalProperties: false,
    },
    media: mediaSchema,
    hero_image_url: { type: 'string' },
    widget_hero_image_url: { type: 'string' },
    home_url: { type: 'string' },
  },
  required: [
    'slug',
    'name',
    'bedrooms',
    'bathrooms',
    'sqft',
    'display_price_with_discount',
    'display_price_without_discount',
    'display_price_label',
    'is_price_monthly',
    'is_price_nightly',
    'duration_label',
    'price_note',
    'eligible_for_flex',
    'amenities',
    'has_parking',
    'laundry_type',
    'pet_policy',
    'property',
    'availability',
    'media',
    'home_url',
  ],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    apartments: { type: 'array', items: apartmentSchema, description: 'In the order the slugs were given.' },
    not_found: { type: 'array', items: { type: 'string' }, description: 'Slugs that do not resolve to an apartment.' },
  },
  required: ['apartments', 'not_found'],
  additionalProperties: false,
} as const;

type Comparison = FromSchema<typeof outputSchema>;
type ComparedApartment = Comparison['apartments'][number];

function compared(ctx: HomeContext, publicBaseUrl: string, siteBaseUrl: string, today: string): ComparedApartment {
  const { home, property, market } = ctx;
  const availability = computeAvailability(home, today);
  const media = mediaItems(home, property, publicBaseUrl);
  const city = market.cities.find((c) => c.slug === home.city_slug);
  const neighborhood = market.neighborhoods.find((n) => n.id === home.neighborhood_id);
  return {
    slug: home.slug,
    name: home.name,
    bedrooms: home.bedrooms,
    bathrooms: home.bathrooms,
    sqft: home.sqft,
    // Undated: the price of the engine's reference stay, as an undated search shows.
    ...pricingSpan(1, () => priceForView(home, null, today)),
    eligible_for_flex: offeredTiers(home).length > 0,
    ...(city ? { city: city.name } : {}),
    ...(neighborhood ? { neighborhood: neighborhood.name } : {}),
    amenities: [...new Set([...home.amenities, ...property.amenities])],
    has_parking: home.has_parking,
    laundry_type: home.laundry_type,
    pet_policy: { cats_allowed: home.cats_allowed, dogs_allowed: home.dogs_allowed },
    property: { name: property.name, ...(property.rating ? { member_rating: { average: property.rating.average, count: property.rating.count } } : {}) },
    availability: {
      earliest_available_date: availability.earliest_available_date,
      minimum_nightly_stay: home.minimum_nightly_stay,
      bookable_windows: availability.bookable_windows.length,
    },
    media,
    ...(media[0] ? { hero_image_url: media[0].url, widget_hero_image_url: media[0].widget_url } : {}),
    home_url: homeUrl(siteBaseUrl, home.slug, null),
  };
}

export const compareApartmentsTool = defineTool<FromSchema<typeof inputSchema>, Comparison>({
  name: 'compare_apartments_tool',
  title: `Compare ${min} to ${max} apartments`,
  description:
    `Side-by-side comparison of ${min} to ${max} apartments by slug: all-in price (of a 30-night stay from the earliest ` +
    'available date; quote real dates with get_quote_tool), size, amenities, building rating, parking, pets, ' +
    `laundry, earliest availability and minimum stay, and up to ${MEDIA_PHOTOS} photos each (hero first). Slugs that do not ` +
    'resolve are listed in not_found; the call fails only when none resolves. include_hero_images: true also ' +
    'embeds each hero photo.',
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  // Rate-limit weight: up to COMPARED_APARTMENTS.max apartment reads in one call.
  cost: 2,
  async handler(args, { deps, today }) {
    const found = await findHomes(deps, args.home_slugs);
    const notFoundSlugs = args.home_slugs.filter((s) => !found.has(s));
    if (found.size === 0) {
      throw notFound('no_home_resolved', `None of ${args.home_slugs.map((s) => `"${s}"`).join(', ')} is an apartment. Search to find apartment slugs.`);
    }
    const contexts = args.home_slugs.flatMap((s) => (found.has(s) ? [found.get(s)!] : []));
    const apartments = contexts.map((c) => compared(c, deps.config.publicBaseUrl, deps.config.siteBaseUrl, today));
    const images = args.include_hero_images
      ? contexts.flatMap((c) => {
          const hero = heroPhoto(c.home, c.property);
          return hero ? [{ photoId: hero.id, meta: { home_slug: c.home.slug } }] : [];
        })
      : undefined;
    return { data: { apartments, not_found: notFoundSlugs }, images };
  },
});
