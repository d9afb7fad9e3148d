/** JSON Schema pieces shared by the tools' input and output schemas. */

export const isoDateSchema = {
  type: 'string',
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  description: 'A calendar date, YYYY-MM-DD.',
} as const;

export const endDateSchema = {
  type: 'string',
  pattern: '^([0-9]{4}-[0-9]{2}-[0-9]{2}|indefinite)$',
  description: 'Move-out date (YYYY-MM-DD), or "indefinite" for a Flex stay (then committed_nights is required).',
} as const;

export const slugSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  pattern: '^[a-z0-9][a-z0-9-]*$',
} as const;

export const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const;
