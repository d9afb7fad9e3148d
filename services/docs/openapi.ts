/** openapi.json (OpenAPI 3.1.0, API version 1.0.0), derived from the tool registry. */
import { inGetWords, type Tool } from '../tools/tool';
import { watchPaths } from './openapi-watches';
import { errorObjectSchema as errorSchema } from '../kernel/inventory/schema-pieces';

type Schema = Record<string, unknown>;

function argSchema(tool: Tool, arg: string): Schema {
  const encoding = tool.get?.encoded?.[arg];
  if (encoding) return { ...encoding.schema, description: encoding.description };
  // A dotted name is a property of an object argument (`scope.display_city`).
  let schema = tool.inputSchema as Schema | undefined;
  for (const part of arg.split('.')) schema = (schema?.properties as Record<string, Schema> | undefined)?.[part];
  return schema ?? { type: 'string' };
}

function isRequired(tool: Tool, arg: string): boolean {
  return ((tool.inputSchema as { required?: string[] }).required ?? []).includes(arg) || (tool.get?.required ?? []).includes(arg);
}

/**
 * When a query parameter of one of the route's requiredOneOf groups is required: it is optional on its own
 * (another group may stand in), so its description says which. Empty for every other parameter.
 */
function requiredWhen(tool: Tool, param: string): string {
  const groups = tool.get?.requiredOneOf ?? [];
  const own = groups.find((g) => g.includes(param));
  if (!own) return '';
  const rest = own.filter((p) => p !== param);
  const others = groups.filter((g) => g !== own).map((g) => g.join(' + '));
  return ` Required${rest.length > 0 ? ` with ${rest.join(', ')}` : ''} unless ${others.join(' or ')} is given.`;
}

const errorResponse = (description: string): Schema => ({
  description,
  content: { 'application/json': { schema: errorSchema } },
});

function operation(tool: Tool): Schema {
  const route = tool.get!;
  const parameters: Schema[] = [];
  // A parameter's description in GET names (`scope.display_city` is `display_city` here).
  const words = inGetWords(route);
  for (const [param, arg] of Object.entries(route.pathParams ?? {})) {
    parameters.push({ name: param, in: 'path', required: true, schema: argSchema(tool, arg) });
  }
  for (const [param, arg] of Object.entries(route.renames ?? {})) {
    const { description, ...schema } = argSchema(tool, arg);
    parameters.push({
      name: param,
      in: 'query',
      required: isRequired(tool, arg),
      description: `${words(String(description ?? ''))} (tool argument \`${arg}\`)${requiredWhen(tool, param)}`.trim(),
      schema,
    });
  }
  for (const arg of route.query) {
    const { description, ...schema } = argSchema(tool, arg);
    const text = `${words(String(description ?? ''))}${requiredWhen(tool, arg)}`.trim();
    parameters.push({ name: arg, in: 'query', required: isRequired(tool, arg), ...(text ? { description: text } : {}), schema });
  }
  return {
    operationId: tool.name,
    summary: route.summary,
    description: route.requiredOneOf ? `${tool.description} Required: ${route.requiredOneOf.map((g) => g.join(' + ')).join(', or ')}.` : tool.description,
    ...(route.requiredOneOf ? { 'x-required-one-of': route.requiredOneOf } : {}),
    parameters,
    responses: {
      200: { description: 'Success', content: { 'application/json': { schema: tool.outputSchema } } },
      400: errorResponse('Invalid parameters'),
      404: errorResponse('Unknown home or market'),
      429: errorResponse('Rate limited; see Retry-After'),
    },
  };
}

export function openApiDocument(tools: readonly Tool[], baseUrl: string): Schema {
  const paths: Record<string, Schema> = {};
  for (const tool of tools) {
    if (!tool.get) continue;
    const path = '/api/public' + tool.get.path.replace(/:([a-z_]+)/g, '{$1}');
    paths[path] = { get: operation(tool) };
  }
  // Every endpoint documents the error object for 400 and 404 (spec), and the public API's 429.
  const apiErrors = {
    400: errorResponse('Invalid request'),
    404: errorResponse('No such endpoint'),
    429: errorResponse('Rate limited; see Retry-After'),
  };
  const doc = (summary: string, type: string): Schema => ({
    get: {
      summary,
      responses: {
        200: { description: 'Success', content: { [type]: { schema: { type: type === 'application/json' ? 'object' : 'string' } } } },
        ...apiErrors,
      },
    },
  });
  paths['/api/public/status'] = {
    get: {
      operationId: 'status',
      summary: 'Health of the service, its stores and the index',
      responses: {
        200: {
          description: 'Health report',
          content: {
            'application/json': {
              schema: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'degraded'] } }, required: ['status'] },
            },
          },
        },
        ...apiErrors,
      },
    },
  };
  // For load balancers, orchestrators and Prometheus (outside /api/public: never rate limited).
  const opsErrors = { 400: errorResponse('Invalid request'), 404: errorResponse('No such endpoint') };
  paths['/livez'] = {
    get: {
      operationId: 'livez',
      summary: 'Liveness: 200 while the process answers',
      responses: {
        200: {
          description: 'Alive',
          content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] } } },
        },
        ...opsErrors,
      },
    },
  };
  paths['/readyz'] = {
    get: {
      operationId: 'readyz',
      summary: 'Readiness: Elasticsearch answers and the homes alias points at an index, and MongoDB answers',
      responses: {
        200: {
          description: 'Ready',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { status: { const: 'ready' }, elasticsearch: { const: 'ok' }, mongodb: { const: 'ok' } },
                required: ['status', 'elasticsearch', 'mongodb'],
              },
            },
          },
        },
        ...opsErrors,
        503: errorResponse('Not ready: the message names the parts that are not (Retry-After: 5)'),
      },
    },
  };
  paths['/metrics'] = {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics of this copy of the service (text exposition format 0.0.4)',
      responses: { 200: { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } }, ...opsErrors },
    },
  };
  Object.assign(paths, watchPaths(tools.find((t) => t.name === 'watch_search_tool')));
  paths['/api/public/openapi.json'] = doc('This document', 'application/json');
  paths['/api/public/tools.json'] = doc('The tool server tools/list response', 'application/json');
  paths['/api/public/tools'] = doc('Markdown catalog of every tool', 'text/markdown');
  paths['/api/public/server.json'] = doc('The MCP registry entry of the tool server', 'application/json');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Furnished apartment catalog: public API',
      version: '1.0.0',
      description:
        'Public catalog of furnished apartments, read-only but for saved searches (watches). No authentication; open CORS. The same operations are ' +
        'tools on the MCP tool server at POST /mcp/public.',
    },
    servers: [{ url: baseUrl }],
    paths,
    components: { schemas: { Error: errorSchema } },
  };
}
