/**
 * JSON Schemas of the canonical records: the one definition of each record. The TypeScript types
 * (records.ts) are derived from them, and ops imports (`npm run import`) are validated with them.
 * Timestamps (created_at, updated_at, deleted_at) are set by the writer, not read from files.
 */

import {
  centsSchema as cents,
  idSchema as id,
  isoDateOrNullSchema as dateOrNull,
  isoDateSchema as date,
  latitudeSchema as lat,
  longitudeSchema as lon,
  percentSchema as percent,
  photoRefsSchema as photos,
  slugSchema as slug,
  stateCodeSchema as stateCode,
  textSchema as text,
} from './schema-pieces';

export const marketRecordSchema = {
  type: 'object',
  properties: {
    _id: slug,
    slug,
    name: text,
    state: stateCode,
    latitude: lat,
    longitude: lon,
    cities: {
      type: 'array',
      items: {
        type: 'object',
        properties: { slug, name: text, state: stateCode, latitude: lat, longitude: lon },
        required: ['slug', 'name', 'state', 'latitude', 'longitude'],
        additionalProperties: false,
      },
    },
    neighborhoods: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id, slug, name: text, city_slug: slug, description: text },
        required: ['id', 'slug', 'name', 'city_slug', 'description'],
        additionalProperties: false,
      },
    },
  },
  required: ['_id', 'slug', 'name', 'state', 'latitude', 'longitude', 'cities', 'neighborhoods'],
  additionalProperties: false,
} as const;

export const propertyRecordSchema = {
  type: 'object',
  properties: {
    _id: id,
    slug,
    name: text,
    market_slug: slug,
    city_slug: slug,
    neighborhood_id: id,
    address: text,
    city: text,
    state: stateCode,
    latitude: lat,
    longitude: lon,
    amenities: { type: 'array', items: text },
    has_pool: { type: 'boolean' },
    has_gym: { type: 'boolean' },
    has_elevator: { type: 'boolean' },
    description: text,
    photos,
    rating: {
      anyOf: [
        {
          type: 'object',
          properties: { average: { type: 'number', minimum: 1, maximum: 5 }, count: { type: 'integer', minimum: 1 } },
          required: ['average', 'count'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    },
    scores: {
      type: 'object',
      properties: {
        walk_score: { type: 'integer', minimum: 0, maximum: 100 },
        walk_score_description: text,
        transit_score: { type: 'integer', minimum: 0, maximum: 100 },
        transit_score_description: text,
        bike_score: { type: 'integer', minimum: 0, maximum: 100 },
        bike_score_description: text,
      },
      additionalProperties: false,
    },
    allows_cats: { type: 'boolean' },
    allows_dogs: { type: 'boolean' },
  },
  required: [
    '_id', 'slug', 'name', 'market_slug', 'city_slug', 'neighborhood_id', 'address', 'city', 'state', 'latitude',
    'longitude', 'amenities', 'has_pool', 'has_gym', 'has_elevator', 'description', 'photos', 'rating', 'scores',
    'allows_cats', 'allows_dogs',
  ],
  additionalProperties: false,
} as const;

const bookingRange = {
  type: 'object',
  properties: {
    start_date: date,
    end_date: dateOrNull,
    open_for_occupancy: { type: 'boolean' },
    move_in_allowed: { type: 'boolean' },
    move_out_allowed: { type: 'boolean' },
    unbookable_reason: { anyOf: [text, { type: 'null' }] },
  },
  required: ['start_date', 'end_date', 'open_for_occupancy', 'move_in_allowed', 'move_out_allowed', 'unbookable_reason'],
  additionalProperties: false,
} as const;

/** A record over the half-open date range [start_date, end_date) with more fields, all required. */
const dated = <const E extends Record<string, object>>(extra: E, description: string) =>
  ({
    type: 'object',
    description,
    properties: { start_date: date, end_date: date, ...extra },
    required: ['start_date', 'end_date', ...(Object.keys(extra) as Array<Extract<keyof E, string>>)],
    additionalProperties: false,
  }) as const;

export const homeRecordSchema = {
  type: 'object',
  properties: {
    _id: id,
    slug,
    name: text,
    property_id: id,
    market_slug: slug,
    city_slug: slug,
    neighborhood_id: id,
    unit_number: { type: 'string', maxLength: 50 },
    floor: { type: 'integer', minimum: -5, maximum: 200 },
    bedrooms: { type: 'integer', minimum: 0, maximum: 20 },
    bathrooms: { type: 'number', minimum: 0, maximum: 20 },
    sqft: { type: 'integer', minimum: 50, maximum: 20000 },
    amenities: { type: 'array', items: text },
    has_parking: { type: 'boolean' },
    cats_allowed: { type: 'boolean' },
    dogs_allowed: { type: 'boolean' },
    laundry_type: { enum: ['In Unit', 'On-Site Facility', null] },
    air_conditioned: { type: 'boolean' },
    has_balcony: { type: 'boolean' },
    self_check_in: { type: 'boolean' },
    photos,
    nightly_rate_cents: { type: 'integer', minimum: 1 },
    monthly_rate_cents: { type: 'integer', minimum: 1 },
    fees: {
      type: 'object',
      properties: { cleaning_fee_cents: cents, monthly_service_fee_cents: cents, pet_fee_cents: cents, monthly_pet_rent_cents: cents },
      required: ['cleaning_fee_cents', 'monthly_service_fee_cents', 'pet_fee_cents', 'monthly_pet_rent_cents'],
      additionalProperties: false,
    },
    seasonal_discounts: {
      type: 'array',
      items: dated({ percent, label: text }, 'A percentage off the rent of each night that falls in [start_date, end_date).'),
    },
    length_of_stay_discounts: {
      type: 'array',
      items: {
        type: 'object',
        properties: { min_nights: { type: 'integer', minimum: 1 }, percent },
        required: ['min_nights', 'percent'],
        additionalProperties: false,
      },
    },
    special_offer: {
      anyOf: [
        dated(
          { percent, label: text },
          'A vacancy-driven offer, generated automatically: a percentage off all rent for stays that move in inside ' +
            '[start_date, end_date); active while today is before end_date.',
        ),
        { type: 'null' },
      ],
    },
    flex_eligible: { type: 'boolean' },
    flex_tiers: {
      type: 'array',
      items: {
        type: 'object',
        properties: { committed_nights: { type: 'integer', minimum: 180, maximum: 1100 }, monthly_rate_cents: { type: 'integer', minimum: 1 } },
        required: ['committed_nights', 'monthly_rate_cents'],
        additionalProperties: false,
      },
    },
    minimum_nightly_stay: { type: 'integer', minimum: 1, maximum: 365 },
    minimum_stay_rules: {
      type: 'array',
      items: dated(
        { minimum_nightly_stay: { type: 'integer', minimum: 1, maximum: 365 } },
        'A stricter minimum stay that binds stays whose move-in date lies in [start_date, end_date).',
      ),
    },
    calendar: { type: 'array', items: bookingRange, maxItems: 5000 },
    available_from: dateOrNull,
    must_vacate_by: dateOrNull,
    published: { type: 'boolean' },
  },
  required: [
    '_id', 'slug', 'name', 'property_id', 'market_slug', 'city_slug', 'neighborhood_id', 'unit_number', 'floor',
    'bedrooms', 'bathrooms', 'sqft', 'amenities', 'has_parking', 'cats_allowed', 'dogs_allowed', 'laundry_type',
    'air_conditioned', 'has_balcony', 'self_check_in', 'photos', 'nightly_rate_cents', 'monthly_rate_cents', 'fees',
    'seasonal_discounts', 'length_of_stay_discounts', 'special_offer', 'flex_eligible', 'flex_tiers',
    'minimum_nightly_stay', 'minimum_stay_rules', 'calendar', 'available_from', 'must_vacate_by', 'published',
  ],
  additionalProperties: false,
} as const;
