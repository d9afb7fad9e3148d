/**
 * The MCP server of one request (stateless Streamable HTTP: a fresh server per request).
 * Unknown tools are JSON-RPC errors; invalid arguments and business failures are tool results
 * with `isError: true` carrying the spec's error object (DESIGN: "One registry, two transports").
 * The widgets are its resources (./resources.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../../deps';
import { toApiError } from '../../kernel/errors';
import { invokeTool } from '../../tools/invoke';
import type { AnyTool, EmbeddedImage } from '../../tools/tool';
import type { Validators } from '../../tools/validate';
import type { RateLimits } from '../rate-limit';
import { registerWidgetResources } from './resources';
import { toolsList } from './tool-list';

export const SERVER_INFO = { name: 'furnished-catalog', title: 'Furnished apartment catalog', version: '1.0.0' };

const INSTRUCTIONS =
  'Public catalog of furnished apartments for fixed stays and open-ended Flex stays. Typical flow: ' +
  'list_markets_tool to find a market or city slug; search with that slug and dates; get_quote_tool for the chosen ' +
  'home and the same dates. Dates are YYYY-MM-DD (start_date/end_date). Quote display_price_with_discount, never a bare rate.';

/** The SDK validates elicitation schemas with it (this server sends none); building one costs more than a request. */
const SHARED_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** tools/list is the same for every request of a process: derived once per registry. */
const LISTED = new WeakMap<readonly AnyTool[], ReturnType<typeof toolsList>>();
function listedOnce(tools: readonly AnyTool[]): ReturnType<typeof toolsList> {
  let listed = LISTED.get(tools);
  if (!listed) LISTED.set(tools, (listed = toolsList(tools)));
  return listed;
}

type ImageLoader = (images: EmbeddedImage[]) => Promise<CallToolResult['content']>;

export function createMcpServer(
  tools: readonly AnyTool[],
  validators: Validators,
  deps: Deps,
  limits: RateLimits,
  clientKey: string,
  loadImages: ImageLoader,
): Server {
  const server = new Server(SERVER_INFO, {
    // One validator per process: the SDK would build a new Ajv (schemas, formats) for every stateless request.
    jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } },
    instructions: INSTRUCTIONS,
  });
  registerWidgetResources(server, deps.config.publicBaseUrl);
  server.setRequestHandler(ListToolsRequestSchema, async () => listedOnce(tools));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    const validate = validators.strict.get(request.params.name);
    if (!tool || !validate) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    try {
      await limits.consume(clientKey, tool.rateBucket ?? 'default');
      const result = await invokeTool(tool, validate, request.params.arguments ?? {}, deps);
      const text = JSON.stringify(tool.modelText ? tool.modelText(result.data) : result.data);
      const content: CallToolResult['content'] = [{ type: 'text', text }];
      if (result.images?.length) content.push(...(await loadImages(result.images)));
      return {
        content,
        structuredContent: result.data as Record<string, unknown>,
        ...(result.meta ? { _meta: result.meta } : {}),
      };
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) deps.log.error({ err, tool: tool.name }, 'tool call failed');
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(apiError.toBody()) }] };
    }
  });
  return server;
}
