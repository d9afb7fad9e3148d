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
} as const;

export const stayCheckSchema = {
  type: 'object',
  properties: {
    available: { type: 'boolean' },
    unavailable_reason: { type: 'string' },
    unbookable_reason: unbookableReasonSchema,
  },
  required: ['available'],
} as const;

export const petPolicySchema = {
  type: 'object',
  properties: { cats_allowed: { type: 'boolean' }, dogs_allowed: { type: 'boolean' } },
  required: ['cats_allowed', 'dogs_allowed'],
} as const;
