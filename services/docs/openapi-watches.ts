/**
 * The watches' routes in openapi.json: POST /api/public/watches takes watch_search_tool's arguments
 * and answers its result (both schemas from the registry), the feed, its Atom form and DELETE.
 */
import type { Tool } from '../tools/tool';
import { errorObjectSchema } from '../kernel/inventory/schema-pieces';

type Schema = Record<string, unknown>;

const errorResponse = (description: string): Schema => ({
  description,
  content: { 'application/json': { schema: errorObjectSchema } },
});

const tokenParam = { name: 'token', in: 'path', required: true, description: 'The token watch_search_tool returned once.', schema: { type: 'string' } };

const changeSchema: Schema = {
  type: 'object',
  properties: {
    change_id: { type: 'string', description: 'One id forever.' },
    kind: { type: 'string', enum: ['entered', 'price_dropped', 'left'] },
    home_slug: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    price: { type: ['number', 'null'], description: 'The all-in price the search shows for the stay; null when the home left.' },
    home: { type: 'object', description: 'The home’s card as the search shows it (entered, price_dropped).' },
  },
  required: ['change_id', 'kind', 'home_slug', 'at', 'price'],
};

const feedSchema: Schema = {
  type: 'object',
  properties: {
    watch_id: { type: 'string' },
    expires_on: { type: 'string' },
    changes: { type: 'array', items: changeSchema },
    next_cursor: { type: 'string', description: 'Pass as cursor for the next page (also to poll when nothing is left yet).' },
    has_more: { type: 'boolean' },
    unwatch_url: { type: 'string', description: 'DELETE ends the watch.' },
  },
  required: ['watch_id', 'expires_on', 'changes', 'next_cursor', 'has_more', 'unwatch_url'],
};

export function watchPaths(tool: Tool | undefined): Record<string, Schema> {
  if (!tool) return {};
  const gone = errorResponse('No live watch has this token (unknown, ended or expired)');
  return {
    '/api/public/watches': {
      post: {
        operationId: tool.name,
        summary: 'Save a search as a watch: its changes come in a feed, in Atom and, with webhook_url, as signed webhooks',
        description: tool.description,
        requestBody: { required: true, content: { 'application/json': { schema: tool.inputSchema } } },
        responses: {
          201: { description: 'Saved; the token and webhook_secret are shown this once', content: { 'application/json': { schema: tool.outputSchema } } },
          400: errorResponse('Invalid search, no consent, or a refused webhook_url'),
          404: errorResponse('Unknown market or place'),
          409: errorResponse('The email has its fill of live watches (too_many_watches)'),
          413: errorResponse('Body too large'),
          429: errorResponse('Rate limited or past the write budget; see Retry-After'),
        },
      },
    },
    '/api/public/watches/{token}/changes': {
      get: {
        operationId: 'watch_changes',
        summary: "A watch's changes in order, paged by an opaque cursor",
        parameters: [tokenParam, { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } }],
        responses: {
          200: { description: 'A page of changes', content: { 'application/json': { schema: feedSchema } } },
          400: errorResponse('A cursor this feed did not give'),
          404: gone,
          429: errorResponse('Rate limited; see Retry-After'),
        },
      },
    },
    '/api/public/watches/{token}/atom': {
      get: {
        operationId: 'watch_atom',
        summary: "A watch's latest changes as an Atom feed",
        parameters: [tokenParam],
        responses: {
          200: { description: 'Atom 1.0', content: { 'application/atom+xml': { schema: { type: 'string' } } } },
          400: errorResponse('Invalid request'),
          404: gone,
          429: errorResponse('Rate limited; see Retry-After'),
        },
      },
    },
    '/api/public/watches/{token}': {
      delete: {
        operationId: 'unwatch',
        summary: 'End a watch',
        parameters: [tokenParam],
        responses: { 204: { description: 'Ended' }, 400: errorResponse('Invalid request'), 404: gone, 429: errorResponse('Rate limited; see Retry-After') },
      },
    },
  };
}
