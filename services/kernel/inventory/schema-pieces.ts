/**
 * JSON Schema pieces defined once and reused by the record schemas (import validation), the tool
 * schemas (arguments and outputs) and the OpenAPI document.
 */

/** A calendar date, YYYY-MM-DD (whether it is a real date is checked where it is read). */
export const isoDateSchema = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'A calendar date, YYYY-MM-DD.' } as const;
export const isoDateOrNullSchema = { anyOf: [isoDateSchema, { type: 'null' }] } as const;

/** A move-out date, or "indefinite" for a Flex stay. */
export const endDateSchema = {
  type: 'string',
  pattern: '^([0-9]{4}-[0-9]{2}-[0-9]{2}|indefinite)$',
  description: 'Move-out date (YYYY-MM-DD), or "indefinite" for a Flex stay (then committed_nights is required).',
} as const;

/** A Flex tier argument, nights committed (which tiers exist is the tier rules' business, not the schema's). */
export const committedNightsSchema = { type: 'integer', minimum: 1, maximum: 1100 } as const;

/** Far above any rent, and small enough that a nightly limit times 30 still fits the index's integers. */
export const MAX_PRICE_USD = 1_000_000;
/** A USD budget limit argument (min_price, max_price); what it is compared with is each tool's own rule. */
export const priceLimitSchema = { type: 'integer', minimum: 0, maximum: MAX_PRICE_USD } as const;
/** A guest-rating threshold argument, 1 to 5. */
export const ratingThresholdSchema = { type: 'number', minimum: 1, maximum: 5 } as const;

/** Slugs of markets, cities, buildings and apartments. */
export const slugSchema = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 200 } as const;
export const idSchema = { type: 'string', minLength: 1, maxLength: 100 } as const;
/** Money in the records: integer US cents. */
export const centsSchema = { type: 'integer', minimum: 0 } as const;
export const textSchema = { type: 'string', maxLength: 10000 } as const;
export const percentSchema = { type: 'number', minimum: 0, maximum: 100 } as const;
export const latitudeSchema = { type: 'number', minimum: -90, maximum: 90 } as const;
export const longitudeSchema = { type: 'number', minimum: -180, maximum: 180 } as const;
export const stateCodeSchema = { type: 'string', pattern: '^[A-Z]{2}$' } as const;

/** Photos a record refers to; the service serves them at /media/<id>.jpg and /media/<id>-800.jpg. */
export const photoRefsSchema = {
  type: 'array',
  items: { type: 'object', properties: { id: idSchema, caption: textSchema }, required: ['id'], additionalProperties: false },
} as const;

/** The error object of both transports (docs/contract.md, "Errors"). */
export const errorObjectSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
} as const;
