/**
 * Whether a request is one the SDK would serve without a question, and on which era: one JSON-RPC
 * request (no batch) of a given method with params of nothing but the method's own and the era's
 * plain `_meta`, and headers the SDK accepts for its era. The SDK's own classifier judges the
 * 2026-07-28 envelope and the protocol-version header; the Mcp-* headers must name what the body
 * names. Anything else, however slightly off, is left to the SDK, which answers it (and every error)
 * as always. Prepared answers (./prepared-answers.ts) and the fast tool call (./fast-tool-call.ts)
 * take only what this judges plain.
 */
import { classifyInboundRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

const MODERN = '2026-07-28';

/** The request headers the judgement reads (lower-case names, as Node gives them). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export type Era = 'legacy' | 'modern';

export interface PlainRequest {
  era: Era;
  id: string | number;
  params: Record<string, unknown>;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const header = (headers: RequestHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};
const onlyKeys = (o: Record<string, unknown>, allowed: readonly string[]): boolean => Object.keys(o).every((k) => allowed.includes(k));

/**
 * The era of a plain request of `method` whose params hold nothing but `allowed` (and the era's
 * `_meta`); on 2026-07-28 the Mcp-Method and Mcp-Name headers must name `method` and `name`. Null when
 * anything is off.
 */
export function plainRequest(body: unknown, headers: RequestHeaders, method: string, allowed: readonly string[], name?: string): PlainRequest | null {
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
