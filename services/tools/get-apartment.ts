/** get_apartment_tool — GET /api/public/homes/{slug} (docs/contract.md, "get_apartment_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import type { Deps } from '../deps';
import { computeAvailability } from '../kernel/engine/availability';
import { checkFlexTier, checkStartOnly, checkStay } from '../kernel/engine/stay-check';
import { offeredTier, offeredTiers } from '../kernel/engine/flex';
import type { StayCheck } from '../kernel/engine/types';
import { loadHome, type HomeContext } from '../homes/repository';
import { detailPhotos, heroPhotoId, mediaItems } from '../homes/photos';
import { homeUrl, reservationLink, type LinkDates } from '../homes/links';
import { priceForView } from '../homes/pricing-view';
import { propertyBlock } from '../homes/property-block';
import { apartmentOutputSchema } from '../contracts/apartment-output';
import { readStay } from '../stays/read-stay';
import { stayArgProperties } from '../stays/stay-arguments';
import { stayClip, stayRequestOf, type StayDates } from '../stays/stay-dates';
import { APARTMENT_STAY_POLICY } from '../stays/stay-policies';
import { defineTool, READ_ONLY, type ToolResult } from './tool';
import { pricingSpan } from '../kernel/tracing';

const inputSchema = {
  type: 'object',
  properties: {
    slug: { type: 'string', minLength: 1, maxLength: 200, description: 'Apartment slug, from a search result.' },
    ...stayArgProperties,
    include_hero_image: {
      type: 'boolean',
      default: false,
      description: 'True also returns the hero photo as embedded image content.',
    },
  },
  required: ['slug'],
  additionalProperties: false,
} as const;

type Args = FromSchema<typeof inputSchema>;
export type ApartmentDetail = FromSchema<typeof apartmentOutputSchema>;

function requestedStay(ctx: HomeContext, dates: StayDates<number>, committedNights: number | undefined, today: string): StayCheck | null {
  const stay = stayRequestOf(dates);
  // A Flex tier the apartment does not offer is reported even without dates (docs/contract.md, get_apartment_tool rule 2).
  const tierCheck = committedNights !== undefined && !stay ? checkFlexTier(ctx.home, committedNights) : null;
  if (tierCheck) return tierCheck;
  if (stay) return checkStay(ctx.home, stay, { cats: 0, dogs: 0 }, today);
  return dates.kind === 'start_only' ? checkStartOnly(ctx.home, dates.start_date, today) : null;
}

export function apartmentDetail(ctx: HomeContext, dates: StayDates<number>, committedNights: number | undefined, deps: Deps, today: string): ApartmentDetail {
  const { home, property, market } = ctx;
  const base = deps.config.publicBaseUrl;
  const check = requestedStay(ctx, dates, committedNights, today);
  const stay = stayRequestOf(dates);
  // Links carry the dates (and tier) only when that stay, or that move-in date, is bookable.
  let prefill: LinkDates | null = null;
  if (check?.available && stay) prefill = stay;
  if (check?.available && dates.kind === 'start_only') prefill = { kind: 'start_only', start_date: dates.start_date };
  // A dated stay shows its own price even when it cannot be booked, unless it cannot be priced (unoffered tier).
  const pricedStay = stay && (stay.kind === 'fixed' || offeredTier(home, stay.committed_nights)) ? stay : null;
  const media = mediaItems(home, property, base);
  const city = market.cities.find((c) => c.slug === home.city_slug);
  return {
    slug: home.slug,
    id: home._id,
    name: home.name,
    unit_number: home.unit_number,
    bedrooms: home.bedrooms,
    bathrooms: home.bathrooms,
    sqft: home.sqft,
    floor: home.floor,
    market: { slug: market.slug, name: market.name },
    display_city: city ? { slug: city.slug, name: city.name, state: city.state } : null,
    ...pricingSpan(1, () => priceForView(home, pricedStay, today)),
    // As in search: Flex is supported when a tier can actually be quoted.
    eligible_for_flex: offeredTiers(home).length > 0,
    amenities: home.amenities,
    property: propertyBlock(property),
    has_parking: home.has_parking,
    pet_policy: { cats_allowed: home.cats_allowed, dogs_allowed: home.dogs_allowed },
    laundry_type: home.laundry_type,
    photos: detailPhotos(home, property, base),
    media,
    widget_hero_image_url: media[0]?.widget_url ?? null,
    home_url: homeUrl(deps.config.siteBaseUrl, home.slug, prefill),
    reservation_link: reservationLink(deps.config.checkoutBaseUrl, home.slug, prefill),
    ...(check ? { requested_stay: check } : {}),
    availability: computeAvailability(home, today, stayClip(dates)),
  };
}

export const getApartmentTool = defineTool<Args, ApartmentDetail>({
  name: 'get_apartment_tool',
  title: 'Read one apartment',
  description:
    'Reads one apartment by slug: all-in price, size, building (amenities, guest rating, walk/transit/bike scores), ' +
    'parking, pet policy, laundry, every photo, and its availability calendar (bookable windows with their minimum ' +
    'stays, raw ranges, earliest available date). Pass start_date and end_date (or end_date "indefinite" with ' +
    'committed_nights for Flex) to check that stay: requested_stay says whether it can be booked, the price is that ' +
    "stay's, the calendar is clipped to it, and reservation_link is pre-filled only when the stay is bookable.",
  inputSchema,
  outputSchema: apartmentOutputSchema,
  annotations: READ_ONLY,
  get: {
    path: '/homes/:slug',
    pathParams: { slug: 'slug' },
    renames: { check_in: 'start_date', check_out: 'end_date' },
    query: ['committed_nights'],
    summary: 'One apartment with its availability calendar',
  },
  async handler(args, { deps, today }): Promise<ToolResult<ApartmentDetail>> {
    const dates = readStay(args, today, APARTMENT_STAY_POLICY);
    const ctx = await loadHome(deps, args.slug);
    const data = apartmentDetail(ctx, dates, args.committed_nights, deps, today);
    const hero = heroPhotoId(ctx.home, ctx.property);
    return {
      data,
      images: args.include_hero_image && hero ? [{ photoId: hero, meta: { home_slug: ctx.home.slug } }] : undefined,
    };
  },
});
