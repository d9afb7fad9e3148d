/** Output schemas of search_apartments_tool and search_apartments_on_map (docs/contract.md, "search_apartments_tool", "search_apartments_on_map"). */
import type { FromSchema } from 'json-schema-to-ts';
import { apartmentBasicsProperties, displayCitySchema, displayPriceProperties, mediaSchema, ratingSchema } from './output-pieces';
import { MAP_PINS } from '../kernel/limits/pages';
import { facetsSchema } from './facets-output';
import { SEARCH_RESULT_PHOTOS } from '../kernel/limits/media';

/** An answer's `matched` (search/shared/matched-texts.ts): why a home is in an answer of q. */
export const matchedSchema = {
  type: 'array',
  description:
    'Present when the search has q: the fields that matched its words (building_name, title, neighborhood, city, market, address, ' +
    'amenities, building_amenities, pets, description), each once, with a short fragment of the text where the matched words are ' +
    'marked <mark>…</mark> (the rest HTML-escaped).',
  items: {
    type: 'object',
    properties: { field: { type: 'string' }, text: { type: 'string' } },
    required: ['field', 'text'],
    additionalProperties: false,
  },
} as const;

export const searchResultSchema = {
  type: 'object',
  properties: {
    ...apartmentBasicsProperties,
    city: { type: 'string', description: 'Display city name.' },
    latitude: { type: 'number', description: "The building's point." },
    longitude: { type: 'number' },
    distance_miles: { type: 'number', description: 'Straight-line miles from near_latitude/near_longitude; only when they are given.' },
    stay: {
      type: 'object',
      description:
        "Present when the search names a window of move-in dates (latest_start_date): the apartment's chosen stay, the cheapest start in the " +
        'window (ties to the earliest). Its price fields, flex_options and home_url are for this stay.',
      properties: {
        start_date: { type: 'string', description: 'Move-in date, YYYY-MM-DD.' },
        end_date: { type: ['string', 'null'], description: 'Move-out date; null for a Flex stay (open-ended).' },
        nights: { type: 'integer', description: 'Nights of the stay; for Flex, the committed nights.' },
      },
      required: ['start_date', 'end_date', 'nights'],
      additionalProperties: false,
    },
    ...displayPriceProperties,
    home_url: { type: 'string', description: "The apartment's page with the search dates (and Flex tier) pre-filled." },
    hero_image_url: { type: 'string', description: 'Hero photo; absent when the apartment has no photo.' },
    widget_hero_image_url: { type: 'string', description: '800 px variant of the hero photo; present whenever a photo exists.' },
    media: { ...mediaSchema, maxItems: SEARCH_RESULT_PHOTOS, description: 'The hero photo alone (search shows one photo).' },
    eligible_for_flex: { type: 'boolean' },
    flex_options: {
      type: 'array',
      description: 'Flex tiers the apartment accepts with their all-in monthly price; present for eligible apartments.',
      items: {
        type: 'object',
        properties: {
          committed_nights: { type: 'integer' },
          display_price_with_discount: { type: 'number' },
          display_price_label: { type: 'string' },
        },
        required: ['committed_nights', 'display_price_with_discount', 'display_price_label'],
        additionalProperties: false,
      },
    },
    property: {
      type: 'object',
      description: 'Omitted when the building has no guest rating.',
      properties: {
        member_rating: ratingSchema,
      },
      required: ['member_rating'],
      additionalProperties: false,
    },
    earliest_available_date: { type: ['string', 'null'] },
    matched: matchedSchema,
  },
  required: [
    'slug',
    'name',
    'bedrooms',
    'bathrooms',
    'sqft',
    'city',
    'latitude',
    'longitude',
    'display_price_with_discount',
    'display_price_without_discount',
    'display_price_label',
    'is_price_monthly',
    'is_price_nightly',
    'duration_label',
    'price_note',
    'home_url',
    'media',
    'eligible_for_flex',
    'earliest_available_date',
  ],
  additionalProperties: false,
} as const;

const searchedCitySchema = { ...displayCitySchema, description: 'The display city searched (echoed); null when a market was searched.' } as const;

/** What both searches answer around their homes. */
export const searchEnvelopeProperties = {
  market: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'], additionalProperties: false },
  display_city: searchedCitySchema,
  total_count: { type: 'integer', description: 'Matching apartments over all pages.' },
  count: { type: 'integer', description: 'Apartments in this answer.' },
  flex_search_url: { type: 'string', description: 'Present when any apartment here is Flex-eligible: the website search for Flex stays in this place.' },
  near: {
    type: 'object',
    description: 'The point of a proximity search, echoed with its label.',
    properties: { latitude: { type: 'number' }, longitude: { type: 'number' }, radius_miles: { type: 'number' }, label: { type: 'string' } },
    required: ['latitude', 'longitude', 'radius_miles'],
    additionalProperties: false,
  },
  facets: facetsSchema,
} as const;

/** The envelope alone, as both searches build it before adding their pages or their map. */
export const searchEnvelopeSchema = {
  type: 'object',
  properties: searchEnvelopeProperties,
  required: ['market', 'display_city', 'total_count', 'count'],
  additionalProperties: false,
} as const;

export type SearchEnvelope = FromSchema<typeof searchEnvelopeSchema>;

/** The market searched, null when no place was named: a polygon (or the map's viewport) alone places the search, which may cover several markets. */
const searchedMarketSchema = {
  type: ['object', 'null'],
  properties: { slug: { type: 'string' } },
  required: ['slug'],
  additionalProperties: false,
} as const;

export const searchOutputSchema = {
  type: 'object',
  properties: {
    ...searchEnvelopeProperties,
    market: { ...searchedMarketSchema, description: 'The market searched; null when a polygon alone places the search (it may cover several markets).' },
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    total_pages: { type: 'integer', description: 'Fetch later pages while page <= total_pages.' },
    homes: { type: 'array', items: searchResultSchema },
  },
  required: ['market', 'display_city', 'total_count', 'total_pages', 'page', 'per_page', 'count', 'homes'],
  additionalProperties: false,
} as const;

/** A cluster of the map's matching homes: a web-map tile with its count, centroid, bounds and cheapest price. */
export const clusterSchema = {
  type: 'object',
  properties: {
    tile: { type: 'string', description: 'The web-map tile, zoom/x/y.' },
    count: { type: 'integer', description: 'Matching apartments in the tile; the counts of all clusters add up to total_count.' },
    latitude: { type: 'number', description: 'Centroid of its apartments.' },
    longitude: { type: 'number' },
    bounds: {
      type: 'object',
      description: 'Its tile (inside the viewport): every apartment of the cluster lies in it.',
      properties: { south: { type: 'number' }, west: { type: 'number' }, north: { type: 'number' }, east: { type: 'number' } },
      required: ['south', 'west', 'north', 'east'],
      additionalProperties: false,
    },
    cheapest_display_price: { type: 'number', description: 'The least all-in price among its apartments for the dates, as their quotes give it.' },
    cheapest_display_price_at_least: {
      type: 'number',
      description: 'Given instead of cheapest_display_price when only a bound is known (a dated stay): no apartment of the cluster costs less.',
    },
    display_price_unit: { type: 'string', enum: ['per_night', 'per_month'], description: "The unit of the cluster price (that of the apartments' prices)." },
  },
  required: ['tile', 'count', 'latitude', 'longitude', 'bounds', 'display_price_unit'],
  additionalProperties: false,
} as const;

export const mapOutputSchema = {
  type: 'object',
  properties: {
    ...searchEnvelopeProperties,
    market: {
      ...searchedMarketSchema,
      description: 'The market searched; null when a viewport or a polygon alone places the search (it may cover several markets).',
    },
    homes: { type: 'array', items: searchResultSchema, maxItems: MAP_PINS, description: `Pins: the first ${MAP_PINS} matches in the search order.` },
    viewport: {
      type: 'object',
      description: 'The viewport searched, echoed, with the geotile precision of its clusters.',
      properties: {
        sw_latitude: { type: 'number' },
        sw_longitude: { type: 'number' },
        ne_latitude: { type: 'number' },
        ne_longitude: { type: 'number' },
        zoom: { type: 'integer' },
        cluster_precision: { type: 'integer', description: "Zoom level of the clusters' tiles: zoom + 2, coarser for a very large viewport." },
      },
      required: ['sw_latitude', 'sw_longitude', 'ne_latitude', 'ne_longitude', 'zoom', 'cluster_precision'],
      additionalProperties: false,
    },
    clusters: {
      type: 'array',
      items: clusterSchema,
      description: `With a viewport, when more apartments match than the ${MAP_PINS} pins: every match grouped by tile, largest first.`,
    },
    map_view: {
      type: 'object',
      properties: {
        requested: { type: 'boolean' },
        enabled: { type: 'boolean' },
        reason: { type: 'string', description: 'Why the map is off; present only when enabled is false.' },
      },
      required: ['requested', 'enabled'],
      additionalProperties: false,
    },
  },
  required: ['market', 'display_city', 'total_count', 'count', 'homes', 'map_view'],
  additionalProperties: false,
} as const;

/** The map search's answer (search_apartments_on_map, search_map_viewport). */
export type MapAnswer = FromSchema<typeof mapOutputSchema>;
