/** Output schemas of get_market_filters_tool and get_market_info (docs/contract.md, "get_market_filters_tool", "get_market_info"). */
import type { FromSchema } from 'json-schema-to-ts';
import { placeSchema } from './output-pieces';

export const marketFiltersOutputSchema = {
  type: 'object',
  properties: {
    market: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'], additionalProperties: false },
    cities: { type: 'array', items: placeSchema, description: 'Display cities with apartments search can return.' },
    bedrooms: { type: 'array', items: { type: 'integer' }, description: 'Bedroom counts that have published apartments (0 = studio).' },
    amenities: {
      type: 'array',
      description: 'Filters with at least one matching apartment; `filter` is the search argument to set to true.',
      items: {
        type: 'object',
        properties: { label: { type: 'string' }, filter: { type: 'string' } },
        required: ['label', 'filter'],
        additionalProperties: false,
      },
    },
    min_bathrooms: { type: 'array', items: { type: 'number' }, description: 'Values of min_bathrooms that match apartments.' },
    price_range: {
      type: 'object',
      description: 'Lowest and highest base monthly rent listed (USD, before discounts); null without apartments.',
      properties: { min: { type: ['integer', 'null'] }, max: { type: ['integer', 'null'] } },
      required: ['min', 'max'],
      additionalProperties: false,
    },
    neighborhoods: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' } },
        required: ['id', 'slug', 'name'],
        additionalProperties: false,
      },
    },
    sort_options: { type: 'array', items: { type: 'string' } },
  },
  required: ['market', 'cities', 'bedrooms', 'amenities', 'min_bathrooms', 'price_range', 'neighborhoods', 'sort_options'],
  additionalProperties: false,
} as const;

export type MarketFilters = FromSchema<typeof marketFiltersOutputSchema>;

const score = { type: 'integer', minimum: 0, maximum: 100 } as const;

export const marketInfoOutputSchema = {
  type: 'object',
  properties: {
    market: {
      type: 'object',
      properties: { slug: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' } },
      required: ['slug', 'name', 'state'],
      additionalProperties: false,
    },
    inventory_count: { type: 'integer', description: 'Apartments search can return in the market.' },
    average_rent_by_bedroom: {
      type: 'array',
      description: "Unweighted average of each apartment's base monthly rate (USD, before discounts), by bedroom count.",
      items: {
        type: 'object',
        properties: { bedrooms: { type: 'integer' }, average_monthly_rent: { type: 'integer' }, apartments: { type: 'integer' } },
        required: ['bedrooms', 'average_monthly_rent', 'apartments'],
        additionalProperties: false,
      },
    },
    popular_neighborhoods: {
      type: 'array',
      description: 'Neighborhoods with the most apartments search can return, most first (at most 5).',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' }, available_apartments: { type: 'integer' } },
        required: ['id', 'slug', 'name', 'available_apartments'],
        additionalProperties: false,
      },
    },
    home: {
      type: 'object',
      description: 'Present only when home_slug is given. No commute time is computed.',
      properties: {
        slug: { type: 'string' },
        market: { type: 'object', properties: { slug: { type: 'string' }, name: { type: 'string' } }, required: ['slug', 'name'], additionalProperties: false },
        city: {
          type: 'object',
          properties: { slug: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' } },
          required: ['slug', 'name', 'state'],
          additionalProperties: false,
        },
        neighborhood: {
          type: 'object',
          properties: { id: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } },
          required: ['id', 'slug', 'name', 'description'],
          additionalProperties: false,
        },
        walk_score: score,
        walk_score_description: { type: 'string' },
        transit_score: score,
        transit_score_description: { type: 'string' },
        bike_score: score,
        bike_score_description: { type: 'string' },
      },
      required: ['slug', 'market'],
      additionalProperties: false,
    },
  },
  required: ['market', 'inventory_count', 'average_rent_by_bedroom', 'popular_neighborhoods'],
  additionalProperties: false,
} as const;

export type MarketInfo = FromSchema<typeof marketInfoOutputSchema>;
