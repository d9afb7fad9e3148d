/** Output schema of get_apartment_tool (docs/contract.md, "get_apartment_tool"). */
import { displayCitySchema, displayPriceProperties, mediaSchema, petPolicySchema, propertyBlockSchema, stayCheckSchema } from './output-pieces';

const windowSchema = {
  type: 'object',
  properties: {
    start_date: { type: 'string' },
    end_date: { type: ['string', 'null'], description: 'Latest move-out date; null when open-ended.' },
    nights: { type: ['integer', 'null'] },
    can_move_in_at_start: { type: 'boolean' },
    can_move_out_at_end: { type: 'boolean' },
    minimum_nightly_stay: { type: 'integer', description: 'Effective minimum for a stay starting at start_date.' },
    fits_minimum_stay: { type: 'boolean', description: 'False: no stay at all can be booked in this window.' },
  },
  required: ['start_date', 'end_date', 'nights', 'can_move_in_at_start', 'can_move_out_at_end', 'minimum_nightly_stay', 'fits_minimum_stay'],
  additionalProperties: false,
} as const;

export const rangeSchema = {
  type: 'object',
  properties: {
    start_date: { type: 'string' },
    end_date: { type: ['string', 'null'] },
    move_in_allowed: { type: 'boolean' },
    move_out_allowed: { type: 'boolean' },
    open_for_occupancy: { type: 'boolean' },
    unbookable_reason: { type: ['string', 'null'] },
  },
  required: ['start_date', 'end_date', 'move_in_allowed', 'move_out_allowed', 'open_for_occupancy', 'unbookable_reason'],
  additionalProperties: false,
} as const;

export const availabilitySchema = {
  type: 'object',
  properties: {
    bookable_windows: { type: 'array', items: windowSchema },
    ranges: { type: 'array', items: rangeSchema },
    earliest_available_date: { type: ['string', 'null'] },
    minimum_nightly_stay_by_date: {
      type: 'array',
      items: {
        type: 'object',
        properties: { start_date: { type: 'string' }, end_date: { type: ['string', 'null'] }, minimum_nightly_stay: { type: 'integer' } },
        required: ['start_date', 'end_date', 'minimum_nightly_stay'],
        additionalProperties: false,
      },
    },
  },
  required: ['bookable_windows', 'ranges', 'earliest_available_date'],
  additionalProperties: false,
} as const;

export const apartmentOutputSchema = {
  type: 'object',
  properties: {
    slug: { type: 'string' },
    id: { type: 'string', description: 'Stable apartment id.' },
    name: { type: 'string' },
    unit_number: { type: 'string' },
    bedrooms: { type: 'integer', description: '0 = studio.' },
    bathrooms: { type: 'number' },
    sqft: { type: 'integer' },
    floor: { type: 'integer' },
    market: {
      type: 'object',
      properties: { slug: { type: 'string' }, name: { type: 'string' } },
      required: ['slug', 'name'],
      additionalProperties: false,
    },
    display_city: displayCitySchema,
    ...displayPriceProperties,
    eligible_for_flex: { type: 'boolean' },
    amenities: { type: 'array', items: { type: 'string' }, description: 'Amenities of the apartment itself.' },
    property: propertyBlockSchema,
    has_parking: { type: 'boolean' },
    pet_policy: petPolicySchema,
    laundry_type: { enum: ['In Unit', 'On-Site Facility', null] },
    photos: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          widget_url: { type: 'string' },
          source: { type: 'string', enum: ['unit', 'building'] },
          position: { type: 'integer' },
          caption: { type: 'string' },
          hero: { const: true },
        },
        required: ['url', 'widget_url', 'source', 'position'],
        additionalProperties: false,
      },
    },
    media: mediaSchema,
    widget_hero_image_url: { type: ['string', 'null'] },
    home_url: { type: 'string', description: "The apartment's page, with the requested dates when they are bookable." },
    reservation_link: { type: 'string' },
    requested_stay: stayCheckSchema,
    availability: availabilitySchema,
  },
  required: [
    'slug', 'bedrooms', 'photos', 'display_price_with_discount', 'display_price_label', 'display_price_without_discount',
    'is_price_monthly', 'is_price_nightly', 'duration_label', 'price_note', 'property', 'has_parking', 'pet_policy',
    'laundry_type', 'media', 'widget_hero_image_url', 'reservation_link', 'availability', 'id', 'name', 'unit_number',
    'bathrooms', 'sqft', 'floor', 'market', 'display_city', 'eligible_for_flex', 'amenities', 'home_url',
  ],
  additionalProperties: false,
} as const;
