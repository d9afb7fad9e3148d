/**
 * One registry tool called for the tool server, whichever way the request came in (through the SDK's
 * server or the fast path): the client's rate limit, the arguments validated, the handler run, and the
 * answer shaped as MCP wants it: the JSON as text (or the tool's brief of it) and as
 * structuredContent, embedded photos, the result's `_meta`; a failure is an `isError` result carrying
 * the error object (docs/design.md, "One registry, two transports"; docs/contract.md, "Errors").
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Deps } from '../../deps';
import { ApiError, toApiError, unavailableStore } from '../../kernel/errors';
import { toolContext } from '../../tools/invoke';
import type { Tool, EmbeddedImage, RequestScope } from '../../tools/tool';
import type { RateLimits } from '../rate-limit';
import { failureLog, type FailureLog } from '../failure-log';
import { noteRequest } from '../../kernel/tracing';

type ImageLoader = (images: EmbeddedImage[]) => Promise<CallToolResult['content']>;

/** What a tool call needs besides the registry: the stores, the limits and the photos. */
export interface ToolServerContext {
  tools: readonly Tool[];
  deps: Deps;
  limits: RateLimits;
  loadImages: ImageLoader;
}

/** One failure log per process for the tool server (its index-missing warning is rate limited). */
const logged = new WeakMap<Deps, FailureLog>();

/** `traceId`: the request's trace id, sampled or not, for the failure's log line (under a recorded span, that span's). */
export function errorResult(err: unknown, deps: Deps, tool: string, traceId?: string): CallToolResult {
  const apiError = toApiError(err);
  const store = unavailableStore(err);
  if (store) deps.metrics.storeUnavailable.inc({ store });
  let log = logged.get(deps);
  if (!log) logged.set(deps, (log = failureLog(deps.log)));
  log(err, apiError, { tool }, traceId);
  noteRequest({ 'error.type': apiError.code });
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(apiError.toBody()) }] };
}

/** The registry tool of this name, or null (an unknown tool is a protocol error). */
export function registeredTool(context: ToolServerContext, name: string): Tool | null {
  return context.tools.find((t) => t.name === name) ?? null;
}

/** A tool call its client's rate limit refused at the door (./admission.ts): the refusal as the tool's result. */
export function refusedCall(refusal: ApiError, deps: Deps, tool: string, traceId?: string): CallToolResult {
  deps.metrics.toolCalls.inc({ tool, outcome: 'refused' });
  return errorResult(refusal, deps, tool, traceId);
}

/** The call, already counted at the door; `refusal` when its client's bucket could not pay for it. */
export async function callTool(
  context: ToolServerContext,
  scope: RequestScope,
  tool: Tool,
  rawArgs: unknown,
  refusal: ApiError | null = null,
): Promise<CallToolResult> {
  const { deps, loadImages } = context;
  if (refusal) return refusedCall(refusal, deps, tool.name, scope.traceId);
  try {
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
    deps.metrics.toolCalls.inc({ tool: tool.name, outcome: 'tool_error' });
    return errorResult(err, deps, tool.name, scope.traceId);
  }
}
