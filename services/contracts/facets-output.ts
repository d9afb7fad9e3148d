/** The `facets` of a search answer (docs/contract.md, "Facets"): each count is a total_count of the same search with one argument changed. */
import { FLAG_FIELDS } from '../kernel/store/flag-fields';
import { GUEST_RATING_NAMES } from '../kernel/limits/rating';

const counted = (key: string, value: object, description: string) =>
  ({
    type: 'array',
    description,
    items: { type: 'object', properties: { [key]: value, count: { type: 'integer', minimum: 0 } }, required: [key, 'count'], additionalProperties: false },
  }) as const;

export const facetsSchema = {
  type: 'object',
  description: 'Present when facets is true: how many apartments the same search would match with each choice below instead of its own.',
  properties: {
    filters: counted(
      'filter',
      { type: 'string', enum: Object.keys(FLAG_FIELDS) },
      'Every boolean filter, each with the total_count of this search with that filter set to true (0 allowed).',
    ),
    bedrooms: counted(
      'bedrooms',
      { type: 'integer', minimum: 0 },
      "Every bedroom count with a match, ascending: the total_count with both bedroom bounds at that count (min_bedrooms, on GET bedrooms, and max_bedrooms; this search's own dropped).",
    ),
    guest_rating: counted(
      'guest_rating',
      { type: 'string', enum: GUEST_RATING_NAMES },
      'EXCELLENT, VERY_GOOD, GOOD: the total_count with guest_rating set to the bucket (min_rating dropped).',
    ),
    price: {
      type: 'object',
      description:
        "Buckets of the all-in price of the stay (undated, or a start_date alone: the reference stay's, 30 nights from the earliest available date), whole dollars, inclusive, ascending, not overlapping, in unit " +
        "(price_unit, or its default): each count is the total_count with min_price = min and max_price = max (this search's own price limits dropped).",
      properties: {
        unit: { type: 'string', enum: ['per_night', 'per_month'] },
        buckets: {
          type: 'array',
          items: {
            type: 'object',
            properties: { min: { type: 'integer', minimum: 0 }, max: { type: 'integer', minimum: 0 }, count: { type: 'integer', minimum: 0 } },
            required: ['min', 'max', 'count'],
            additionalProperties: false,
          },
        },
      },
      required: ['unit', 'buckets'],
      additionalProperties: false,
    },
  },
  required: ['filters', 'bedrooms', 'guest_rating', 'price'],
  additionalProperties: false,
} as const;
