/**
 * One registry tool called for the tool server, whichever way the request came in (through the SDK's
 * server or the fast path): the client's rate limit, the arguments validated, the handler run, and the
 * answer shaped as MCP wants it: the JSON as text (or the tool's brief of it) and as
 * structuredContent, embedded photos, the result's `_meta`; a failure is an `isError` result carrying
 * the spec's error object (DESIGN: "One registry, two transports").
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Deps } from '../../deps';
import { ApiError, toApiError, unavailableStore } from '../../kernel/errors';
import { toolContext } from '../../tools/invoke';
import type { Tool, EmbeddedImage, RequestScope } from '../../tools/tool';
import type { RateLimits } from '../rate-limit';

type ImageLoader = (images: EmbeddedImage[]) => Promise<CallToolResult['content']>;

/** What a tool call needs besides the registry: the stores, the limits and the photos. */
export interface ToolServerContext {
  tools: readonly Tool[];
  deps: Deps;
  limits: RateLimits;
  loadImages: ImageLoader;
}

export function errorResult(err: unknown, deps: Deps, tool: string): CallToolResult {
  const apiError = toApiError(err);
  const store = unavailableStore(err);
  if (store) deps.metrics.storeUnavailable.inc({ store });
  if (apiError.status >= 500) deps.log.error({ err, tool }, 'tool call failed');
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(apiError.toBody()) }] };
}

/** The registry tool of this name, or null (an unknown tool is a protocol error). */
export function registeredTool(context: ToolServerContext, name: string): Tool | null {
  return context.tools.find((t) => t.name === name) ?? null;
}

export async function callTool(context: ToolServerContext, scope: RequestScope, tool: Tool, rawArgs: unknown): Promise<CallToolResult> {
  const { deps, limits, loadImages } = context;
  try {
    await limits.consume(scope.clientKey, tool.rateBucket ?? 'default');
    const result = await tool.call(rawArgs, 'json', toolContext(deps, scope));
    const text = JSON.stringify(result.text);
    const content: CallToolResult['content'] = [{ type: 'text', text }];
    if (result.images?.length) content.push(...(await loadImages(result.images)));
    deps.metrics.toolCalls.inc({ tool: tool.name, outcome: 'ok' });
    return {
      content,
      structuredContent: result.data as Record<string, unknown>,
      ...(result.meta ? { _meta: result.meta } : {}),
    };
  } catch (err) {
    const refused = err instanceof ApiError && err.code === 'rate_limited';
    deps.metrics.toolCalls.inc({ tool: tool.name, outcome: refused ? 'refused' : 'tool_error' });
    return errorResult(err, deps, tool.name);
  }
}
