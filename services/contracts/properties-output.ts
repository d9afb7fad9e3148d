/** Output schema of search_properties_tool (docs/contract.md, "search_properties_tool": the card of rule 9 and its envelope). */
import { matchedSchema } from './search-output';
import { PROPERTIES_MAX_BYTES } from '../kernel/limits/pages';
import { displayCitySchema, propertyBlockSchema, ratingSchema } from './output-pieces';

/** The building facts a card shares with the apartment read's property block. */
const { id, slug, name, address, city, state, latitude, longitude, amenities, description } = propertyBlockSchema.properties;

const money = { type: 'number', description: 'Whole dollars, all fees except taxes, already discounted.' } as const;
const anchor = {
  type: ['number', 'null'],
  description: 'The price before the special offer; null unless a real offer lowers this price.',
} as const;

export const ADDITIONAL_TYPES = ['nearest_display_city', 'nearby', 'extended_duration', 'category_search', 'hot_cities'] as const;

export const propertyCardSchema = {
  type: 'object',
  properties: {
    id,
    slug,
    name,
    address,
    city,
    state,
    latitude,
    longitude,
    rating: { ...ratingSchema, type: ['object', 'null'], description: 'Guest survey rating of the building; null when it has none.' },
    images: { type: 'array', items: { type: 'string' }, description: 'Building photos in order, bare URLs without sizing.' },
    amenities: { ...amenities, description: 'Every building amenity.' },
    description,
    from_price: { ...money, description: "The cheapest matching unit's final price for the stay (monthly for stays of 30 nights or more)." },
    from_price_label: { type: 'string' },
    distance_miles: { type: ['number', 'null'], description: 'Straight-line miles from near_latitude/near_longitude; null without them.' },
    offer: {
      type: ['object', 'null'],
      description: 'The smallest per-bedroom-count saving of a special offer in the building; null when no unit has one.',
      properties: { saving: { type: 'number' }, price_label: { type: 'string' } },
      required: ['saving', 'price_label'],
      additionalProperties: false,
    },
    bed_groups: {
      type: 'array',
      description: 'One entry per bedroom count among the matching units, cheapest first.',
      items: {
        type: 'object',
        properties: {
          bedrooms: { type: 'integer', description: '0 = studio.' },
          count: { type: 'integer' },
          min_price: money,
          anchor_price: anchor,
          price_label: { type: 'string' },
        },
        required: ['bedrooms', 'count', 'min_price', 'anchor_price', 'price_label'],
        additionalProperties: false,
      },
    },
    units: {
      type: 'array',
      description: 'Matching units, the cheapest three per bedroom count. Open one with get_apartment_tool(slug).',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'Stable apartment id.' },
          slug: { type: 'string' },
          unit_number: { type: 'string' },
          bedrooms: { type: 'integer' },
          baths: { type: 'number' },
          sqft: { type: 'integer' },
          price: money,
          anchor_price: anchor,
          price_label: { type: 'string' },
          available_from: { type: ['string', 'null'], description: 'The first date a stay can start (the authoritative opening date).' },
          image: { type: ['string', 'null'], description: "The unit's hero photo." },
          matched: {
            ...matchedSchema,
            description: 'Present when the search has q: the fields of this unit that matched, as a home of search_apartments_tool has them.',
          },
        },
        required: ['id', 'slug', 'unit_number', 'bedrooms', 'baths', 'sqft', 'price', 'anchor_price', 'price_label', 'available_from', 'image'],
        additionalProperties: false,
      },
    },
    other_dates_count: { type: 'integer', description: 'Units that meet every filter but the dates, bookable at other dates.' },
    other_dates: {
      type: 'array',
      description: 'Some of those units, soonest first; deliberately without price (quote them for their own dates).',
      items: {
        type: 'object',
        properties: {
          unit_number: { type: 'string' },
          bedrooms: { type: 'integer' },
          baths: { type: 'number' },
          sqft: { type: 'integer' },
          available_from: { type: ['string', 'null'] },
        },
        required: ['unit_number', 'bedrooms', 'baths', 'sqft', 'available_from'],
        additionalProperties: false,
      },
    },
    matched: {
      ...matchedSchema,
      description:
        'Present when the search has q: the fields of the building and of the first unit listed in units that matched, each with the matched words marked <mark>…</mark>.',
    },
  },
  required: [
    'id',
    'slug',
    'name',
    'address',
    'city',
    'state',
    'latitude',
    'longitude',
    'rating',
    'images',
    'amenities',
    'description',
    'from_price',
    'from_price_label',
    'distance_miles',
    'offer',
    'bed_groups',
    'units',
    'other_dates_count',
    'other_dates',
  ],
  additionalProperties: false,
} as const;

export const propertiesOutputSchema = {
  type: 'object',
  properties: {
    market: {
      type: ['object', 'null'],
      description: 'The market searched; null when a polygon alone places the search (it may cover several markets).',
      properties: { slug: { type: 'string' } },
      required: ['slug'],
      additionalProperties: false,
    },
    display_city: { ...displayCitySchema, description: 'The display city searched, when one was.' },
    properties: { type: 'array', items: propertyCardSchema, description: "This page's buildings." },
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    total_pages: { type: 'integer' },
    total_properties: { type: 'integer', description: 'Buildings over all pages.' },
    total_homes: { type: 'integer', description: 'Matching units over all pages.' },
    omitted_properties: {
      type: 'integer',
      minimum: 0,
      description: `Buildings of this page left out to keep its cards under ${PROPERTIES_MAX_BYTES / 1024} KiB (0 when none); a smaller per_page shows them.`,
    },
    additional_properties: {
      type: 'array',
      items: propertyCardSchema,
      description: 'Buildings found by relaxing a thin search (see additional_type); not counted in the totals.',
    },
    additional_type: {
      anyOf: [{ type: 'string', enum: ADDITIONAL_TYPES }, { type: 'null' }],
      description:
        'How the additional buildings were found: extended_duration (longer stays from the same move-in date), ' +
        'category_search (without the amenity filters), nearby (a wider radius), nearest_display_city (the nearest ' +
        'other city of the market), hot_cities (the busiest cities of the market, any date); null when the search stood alone.',
    },
  },
  required: [
    'market',
    'display_city',
    'properties',
    'page',
    'per_page',
    'total_pages',
    'total_properties',
    'total_homes',
    'omitted_properties',
    'additional_properties',
    'additional_type',
  ],
  additionalProperties: false,
} as const;
