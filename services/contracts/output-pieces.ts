/** Output-schema pieces shared by the home tools (documentation for clients; validated by MCP clients). */

export const displayPriceProperties = {
  display_price_with_discount: { type: 'number', description: 'The all-in price to quote (all fees except taxes), whole dollars.' },
  display_price_without_discount: { type: 'number', description: 'The same figure before any discount.' },
  display_price_label: { type: 'string', description: 'Always shown with the price, e.g. "per night for 5 nights".' },
  is_price_monthly: { type: 'boolean' },
  is_price_nightly: { type: 'boolean' },
  duration_label: { type: 'string', enum: ['/mo', '/night'] },
  price_note: { type: 'string' },
} as const;

/** The first fields of an apartment in a search result and in a comparison (docs/contract.md, "search_apartments_tool", "compare_apartments_tool"). */
export const apartmentBasicsProperties = {
  slug: { type: 'string' },
  name: { type: 'string' },
  bedrooms: { type: 'integer', description: '0 = studio.' },
  bathrooms: { type: 'number' },
  sqft: { type: 'integer' },
} as const;

export const mediaSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      url: { type: 'string' },
      widget_url: { type: 'string' },
      type: { const: 'photo' },
      source: { type: 'string', enum: ['unit', 'property'] },
      position: { type: 'integer' },
    },
    required: ['url', 'widget_url', 'type', 'source', 'position'],
    additionalProperties: false,
  },
} as const;

export const unbookableReasonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    date: { type: 'string' },
    range_reason: { type: ['string', 'null'] },
    minimum_nightly_stay: { type: 'integer' },
  },
  required: ['code', 'date'],
  additionalProperties: false,
} as const;

export const stayCheckSchema = {
  type: 'object',
  properties: {
    available: { type: 'boolean' },
    unavailable_reason: { type: 'string' },
    unbookable_reason: unbookableReasonSchema,
  },
  required: ['available'],
  additionalProperties: false,
} as const;

export const petPolicySchema = {
  type: 'object',
  properties: { cats_allowed: { type: 'boolean' }, dogs_allowed: { type: 'boolean' } },
  required: ['cats_allowed', 'dogs_allowed'],
  additionalProperties: false,
} as const;

const score = (what: string) =>
  [{ type: 'integer', minimum: 0, maximum: 100, description: `${what} score; omitted until computed.` }, { type: 'string' }] as const;
const [walk, walkText] = score('Walk');
const [transit, transitText] = score('Transit');
const [bike, bikeText] = score('Bike');

/** A building's guest rating, `{average, count}` (docs/contract.md, "Photos": only a building's aggregate rating is exposed). */
export const ratingSchema = {
  type: 'object',
  properties: { average: { type: 'number' }, count: { type: 'integer' } },
  required: ['average', 'count'],
  additionalProperties: false,
} as const;

/** The building block of the apartment read (docs/contract.md, get_apartment_tool rule 6). */
export const propertyBlockSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    slug: { type: 'string' },
    name: { type: 'string' },
    address: { type: 'string' },
    city: { type: 'string' },
    state: { type: 'string' },
    latitude: { type: 'number' },
    longitude: { type: 'number' },
    amenities: { type: 'array', items: { type: 'string' } },
    description: { type: 'string' },
    member_rating: { ...ratingSchema, description: 'Guest survey rating of the building; omitted when it has none.' },
    walk_score: walk,
    walk_score_description: walkText,
    transit_score: transit,
    transit_score_description: transitText,
    bike_score: bike,
    bike_score_description: bikeText,
  },
  required: ['id', 'slug', 'name', 'address', 'city', 'state', 'latitude', 'longitude', 'amenities', 'description'],
  additionalProperties: false,
} as const;

/** A market or display city as the markets list and the search envelopes name it. */
export const placeSchema = {
  type: 'object',
  properties: { slug: { type: 'string' }, name: { type: 'string' }, state: { type: 'string' } },
  required: ['slug', 'name', 'state'],
  additionalProperties: false,
} as const;

/** `display_city` of an answer: the display city searched, or null when a market was (docs/contract.md, search_apartments_tool rule 10). */
export const displayCitySchema = { anyOf: [placeSchema, { type: 'null' }] } as const;
