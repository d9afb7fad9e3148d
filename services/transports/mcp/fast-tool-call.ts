/**
 * The plainest tools/call answered without building an SDK server for it (docs/decisions.md "A tool
 * call as cheap as its GET"): per request, the SDK's server and transport cost ~270 µs of machinery,
 * ten times what encoding an apartment read costs, so a tool call kept 66 % of its GET's throughput.
 *
 * Only a request the SDK would serve without a question takes this path: one JSON-RPC request (no
 * batch) for `tools/call` of a registry tool that needs no confirmation, with params of nothing but
 * `name`, `arguments` and the era's `_meta`, and headers the SDK accepts for its era. The SDK's own
 * classifier judges the 2026-07-28 envelope and the protocol-version header; the Mcp-* headers must
 * name what the body names. Anything else, however slightly off, goes to the SDK, which answers it
 * (and every error) as always. The answer is the one the SDK writes: a test compares both for every
 * tool on both eras (test/e2e/mcp-fast-path.test.ts).
 */
import { classifyInboundRequest, SERVER_INFO_META_KEY, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/server';
import { SERVER_INFO } from '../../tools/server-identity';
import type { ApiError } from '../../kernel/errors';
import type { RequestScope, Tool } from '../../tools/tool';
import { callTool, registeredTool, type ToolServerContext } from './tool-call';

const MODERN = '2026-07-28';

/** The request headers the decision reads (lower-case names, as Node gives them). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface FastToolCall {
  era: 'legacy' | 'modern';
  id: string | number;
  name: string;
  args: Record<string, unknown>;
  /** The registry tool, found once while deciding. */
  tool: Tool;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const header = (headers: RequestHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};
const onlyKeys = (o: Record<string, unknown>, allowed: readonly string[]): boolean => Object.keys(o).every((k) => allowed.includes(k));

/**
 * The era of a request the SDK would serve without a question: one JSON-RPC request (no batch) of
 * `method` with params of nothing but `allowed` and the era's `_meta`, and headers the SDK accepts for
 * its era (the 2026-07-28 Mcp-Method and Mcp-Name must name what the body names: `name`). Null when
 * anything, however slightly, is off: the SDK answers it (and every error) as always.
 */
export function plainRequestEra(body: unknown, headers: RequestHeaders, method: string, allowed: readonly string[], name?: string): { era: 'legacy' | 'modern'; id: string | number; params: Record<string, unknown> } | null {
  if (!isObject(body) || body.method !== method || body.jsonrpc !== '2.0' || !onlyKeys(body, ['jsonrpc', 'id', 'method', 'params'])) return null;
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return null;
  const params = body.params ?? {};
  if (!isObject(params) || !onlyKeys(params, [...allowed, '_meta'])) return null;
  const contentType = header(headers, 'content-type') ?? '';
  if (!contentType.includes('application/json')) return null;

  if (params._meta === undefined) {
    // No envelope claim: a 2025-era request, judged as the SDK's stateless transport judges it.
    const accept = header(headers, 'accept') ?? '';
    const version = header(headers, 'mcp-protocol-version');
    const versionServed = version === undefined || (SUPPORTED_PROTOCOL_VERSIONS.includes(version) && version !== MODERN);
    if (!accept.includes('application/json') || !accept.includes('text/event-stream') || !versionServed) return null;
    if (header(headers, 'mcp-session-id') !== undefined) return null;
    return { era: 'legacy', id, params };
  }
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(headers, 'mcp-protocol-version'),
    mcpMethodHeader: header(headers, 'mcp-method'),
    mcpNameHeader: header(headers, 'mcp-name'),
    body,
  });
  if (outcome.kind !== 'modern') return null;
  const meta = params._meta;
  const named =
    header(headers, 'mcp-protocol-version')?.trim() === MODERN &&
    header(headers, 'mcp-method')?.trim() === method &&
    header(headers, 'mcp-name')?.trim() === name;
  const plainEnvelope =
    isObject(meta) &&
    meta['io.modelcontextprotocol/protocolVersion'] === MODERN &&
    onlyKeys(meta, ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo']);
  return named && plainEnvelope ? { era: 'modern', id, params } : null;
}

/** The tool call to answer here, or null: the SDK answers it. */
export function fastToolCall(body: unknown, headers: RequestHeaders, context: ToolServerContext): FastToolCall | null {
  const name = isObject(body) && isObject(body.params) && typeof body.params.name === 'string' ? body.params.name : undefined;
  if (name === undefined) return null;
  const plain = plainRequestEra(body, headers, 'tools/call', ['name', 'arguments'], name);
  if (!plain) return null;
  const args = plain.params.arguments ?? {};
  if (!isObject(args)) return null;
  const tool = registeredTool(context, name);
  if (!tool || tool.confirmationFor) return null;
  return { era: plain.era, id: plain.id, name, args, tool };
}

/** The JSON-RPC answer's text, as the SDK writes it for the call's era (the same JSON; keys may come in another order). */
export async function answerFastToolCall(call: FastToolCall, context: ToolServerContext, scope: RequestScope, refusal: ApiError | null = null): Promise<string> {
  const { tool } = call;
  const result: CallToolResult = await callTool(context, { ...scope, transport: call.era === 'modern' ? 'mcp-2026' : 'mcp-2025' }, tool, call.args, refusal);
  const { structuredContent, ...rest } = result;
  const wire = call.era === 'modern' ? { ...rest, resultType: 'complete', _meta: { ...rest._meta, [SERVER_INFO_META_KEY]: SERVER_INFO } } : rest;
  const tail = `,"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
  if (structuredContent === undefined) return `{"result":${JSON.stringify(wire)}${tail}`;
  // The text block of a tool without a brief is structuredContent's own JSON: written once, used twice.
  const first = rest.content[0];
  const structuredJson = !tool.briefs && first?.type === 'text' ? first.text : JSON.stringify(structuredContent);
  const head = JSON.stringify(wire);
  return `{"result":${head.slice(0, -1)},"structuredContent":${structuredJson}}${tail}`;
}
