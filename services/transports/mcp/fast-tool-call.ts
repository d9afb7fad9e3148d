/**
 * The plainest tools/call answered without building an SDK server for it (docs/decisions.md "A tool
 * call as cheap as its GET"): per request, the SDK's server and transport cost several times what
 * encoding an apartment read costs, and the bench's tool-server section keeps a tool call under 80 %
 * of its GET's throughput on the SDK path alone.
 *
 * Only a plain request (./plain-request.ts) for `tools/call` of a registry tool that needs no
 * confirmation takes this path, with params of nothing but `name`, `arguments` and the era's `_meta`.
 * The answer is the one the SDK writes, framed as the SDK frames it for the era (JSON on 2026-07-28,
 * an event stream of one message on 2025): a test compares both for every tool on both eras
 * (test/e2e/mcp-fast-path.test.ts).
 */
import { SERVER_INFO_META_KEY, type CallToolResult } from '@modelcontextprotocol/server';
import { SERVER_INFO } from '../../tools/server-identity';
import type { ApiError } from '../../kernel/errors';
import type { RequestScope, Tool } from '../../tools/tool';
import { rendersWidgets } from './client-support';
import { isObject, plainRequest, type Era, type RequestHeaders } from './plain-request';
import type { WireAnswer } from './prepared-answers';
import { callTool, registeredTool, type ToolServerContext } from './tool-call';
import { jsonOf } from '../written-json';

export interface FastToolCall {
  era: Era;
  id: string | number;
  args: Record<string, unknown>;
  /** The registry tool, found once while deciding. */
  tool: Tool;
  /** What the request's envelope says the client renders (2026-07-28). */
  rendersWidgets: boolean;
}

/** The tool call to answer here, or null: the SDK answers it. */
export function fastToolCall(body: unknown, headers: RequestHeaders, context: ToolServerContext): FastToolCall | null {
  const name = isObject(body) && isObject(body.params) && typeof body.params.name === 'string' ? body.params.name : undefined;
  if (name === undefined) return null;
  const plain = plainRequest(body, headers, 'tools/call', ['name', 'arguments'], name);
  if (!plain) return null;
  const args = plain.params.arguments ?? {};
  if (!isObject(args)) return null;
  const tool = registeredTool(context, name);
  if (!tool || tool.confirmationFor) return null;
  return { era: plain.era, id: plain.id, args, tool, rendersWidgets: plain.era === 'modern' && rendersWidgets(plain.params._meta) };
}

/** The headers the SDK sends with an answer of each era (lower-case names). */
const ERA_HEADERS: Record<Era, Record<string, string>> = {
  modern: { 'content-type': 'application/json' },
  legacy: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
};

/** The answer as the SDK writes it for the call's era (the same JSON; keys may come in another order). */
export async function answerFastToolCall(
  call: FastToolCall,
  context: ToolServerContext,
  scope: RequestScope,
  refusal: ApiError | null = null,
): Promise<WireAnswer> {
  const { tool } = call;
  const callScope: RequestScope = {
    ...scope,
    transport: call.era === 'modern' ? 'mcp-2026' : 'mcp-2025',
    ...(call.rendersWidgets ? { rendersWidgets: true } : {}),
  };
  const result: CallToolResult = await callTool(context, callScope, tool, call.args, refusal);
  const { structuredContent, ...rest } = result;
  const wire = call.era === 'modern' ? { ...rest, resultType: 'complete', _meta: { ...rest._meta, [SERVER_INFO_META_KEY]: SERVER_INFO } } : rest;
  const tail = `,"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
  let json: string;
  if (structuredContent === undefined) {
    json = `{"result":${JSON.stringify(wire)}${tail}`;
  } else {
    // The text block of a tool without a brief is structuredContent's own JSON: written once, used twice.
    const first = rest.content[0];
    const structuredJson = !tool.briefs && first?.type === 'text' ? first.text : jsonOf(structuredContent);
    json = `{"result":${JSON.stringify(wire).slice(0, -1)},"structuredContent":${structuredJson}}${tail}`;
  }
  const text = call.era === 'modern' ? json : `event: message\ndata: ${json}\n\n`;
  return { status: 200, headers: ERA_HEADERS[call.era], body: Buffer.from(text) };
}
