/** get_policies_faq_tool — GET /api/public/policies-faq (docs/contract.md, "get_policies_faq_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { POLICY_TOPICS } from '../policies/content';
import { defineTool, READ_ONLY } from './tool';

const inputSchema = {
  type: 'object',
  properties: {
    topic: {
      type: 'string',
      enum: POLICY_TOPICS,
      description: 'One topic; omit for all entries.',
    },
  },
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: { topic: { type: 'string', enum: POLICY_TOPICS }, answer: { type: 'string' } },
        required: ['topic', 'answer'],
        additionalProperties: false,
      },
    },
  },
  required: ['entries'],
  additionalProperties: false,
} as const;

type Args = FromSchema<typeof inputSchema>;
type Output = FromSchema<typeof outputSchema>;

export const policiesFaqTool = defineTool<Args, Output>({
  name: 'get_policies_faq_tool',
  title: 'Policies FAQ',
  description:
    'Answers policy questions: security deposits, pets, parking, cancellation, qualification requirements, Flex ' +
    '(landing_flex), utilities and furnishing, and the move-in process. Answers are conservative: where a figure ' +
    'depends on the apartment or reservation, they point to the quote, checkout or support. Pass `topic` for one ' +
    `entry (${POLICY_TOPICS.join(', ')}), or omit it for all. Returns {entries: [{topic, answer}]}.`,
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  get: { path: '/policies-faq', renames: { q: 'topic' }, query: [], summary: 'Policy answers by topic' },
  async handler(args, { deps }) {
    const docs = await deps.policies.read(args.topic);
    return { data: { entries: docs.map((d) => ({ topic: d.topic as Output['entries'][number]['topic'], answer: d.answer })) } };
  },
});
