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

/** The error object of both transports (spec: "Error object"). */
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
