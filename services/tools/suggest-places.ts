/**
 * GET /api/public/suggest: the place box (docs/contract.md, "GET /api/public/suggest"). A route of the
 * GET API with no tool of its own (`httpOnly`): a person typing wants places completed as they type;
 * an agent has list_markets_tool and q. Its answer's `search` is the argument object that searches the
 * place (a market as `market`, a neighbourhood or building with its `market`, a display city as
 * `scope.display_city`).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { badRequest } from '../kernel/errors';
import { charCount, MAX_SUGGEST_CHARS, TYPED_TEXT_BOUND } from '../kernel/limits/typed-text';
import { foldedTyping, PLACE_TYPES } from '../kernel/text/place-suggestions';
import { suggestPlaces } from '../search/places/place-suggest';
import { defineTool, READ_ONLY } from './tool';
import { SUGGEST_LIMIT } from '../kernel/limits/pages';

const inputSchema = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: TYPED_TEXT_BOUND, description: `What the person typed so far, 1-${MAX_SUGGEST_CHARS} characters.` },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SUGGEST_LIMIT.max,
      default: SUGGEST_LIMIT.default,
      description: `Places to return, 1-${SUGGEST_LIMIT.max}; default ${SUGGEST_LIMIT.default}.`,
    },
  },
  required: ['q'],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    suggestions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: PLACE_TYPES },
          slug: { type: 'string' },
          label: { type: 'string', description: 'The place as it is written.' },
          market: { type: 'string', description: 'The slug of the market the place is in.' },
          search: {
            description:
              'The search arguments of this place: a market as market, with neighborhood or building for those; a display city as ' +
              'scope.display_city, that city alone even when a market has the same slug (GET: the display_city parameter).',
            oneOf: [
              {
                type: 'object',
                properties: { market: { type: 'string' }, neighborhood: { type: 'string' }, building: { type: 'string' } },
                required: ['market'],
                additionalProperties: false,
              },
              {
                type: 'object',
                properties: {
                  scope: {
                    type: 'object',
                    properties: { display_city: { type: 'string' } },
                    required: ['display_city'],
                    additionalProperties: false,
                  },
                },
                required: ['scope'],
                additionalProperties: false,
              },
            ],
          },
        },
        required: ['type', 'slug', 'label', 'market', 'search'],
        additionalProperties: false,
      },
    },
  },
  required: ['suggestions'],
  additionalProperties: false,
} as const;

type Args = FromSchema<typeof inputSchema>;
type Output = FromSchema<typeof outputSchema>;

export const suggestPlacesRoute = defineTool<Args, Output>({
  name: 'suggest_places',
  title: 'Complete a place',
  description:
    'Completes the markets, display cities, neighborhoods and buildings whose names start with q (prefixes, typos, any case and ' +
    'accents), best first; only places with a home that search can return. Each comes with the search arguments of the place.',
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  httpOnly: true,
  get: { path: '/suggest', query: ['q', 'limit'], summary: 'Places completed as a person types' },
  async handler(args, { deps, request }) {
    const typed = args.q.trim();
    if (typed === '') throw badRequest('invalid_parameters', 'q is empty: give the start of a place.');
    const chars = charCount(typed);
    if (chars > MAX_SUGGEST_CHARS) throw badRequest('invalid_parameters', `q is ${chars} characters: at most ${MAX_SUGGEST_CHARS}.`);
    if (foldedTyping(typed).trim() === '') throw badRequest('invalid_parameters', 'q has no letter or digit to complete.');
    const answer = await suggestPlaces(deps, args.q.trimStart(), args.limit ?? SUGGEST_LIMIT.default, request.signal);
    return { data: answer };
  },
});
