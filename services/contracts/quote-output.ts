/** Output schema of get_quote_tool (docs/contract.md, "get_quote_tool"). */
import { displayPriceProperties, mediaSchema, petPolicySchema, unbookableReasonSchema } from './output-pieces';

const section = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'], additionalProperties: false } as const;

export const quoteOutputSchema = {
  type: 'object',
  properties: {
    home_slug: { type: 'string' },
    available: { type: 'boolean' },
    ...displayPriceProperties,
    term_duration_label: { type: 'string' },
    charge_schedule: {
      type: 'object',
      description: 'Totals only, in dollars with cents; a section is omitted when nothing is charged in it.',
      properties: {
        checkout: section,
        monthly: section,
        final_month: section,
        deferred: section,
        total_cost: { type: 'number', description: 'Whole-stay total; omitted for Flex.' },
      },
      additionalProperties: false,
    },
    monthly_total: { type: 'number' },
    total_discount: { type: 'number' },
    currency: { const: 'USD' },
    unbookable_reason: unbookableReasonSchema,
    unavailable_reason: { type: 'string' },
    pet_policy: petPolicySchema,
    guarantee: { type: 'string' },
    media: mediaSchema,
    widget_hero_image_url: { type: ['string', 'null'] },
  },
  required: ['home_slug', 'available', 'currency', 'pet_policy', 'media', 'widget_hero_image_url', 'guarantee'],
  additionalProperties: false,
} as const;
