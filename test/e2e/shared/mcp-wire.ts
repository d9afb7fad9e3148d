/**
 * The shared setup of the tests of POST /mcp/public on both protocol eras (test/e2e/mcp-*.test.ts): the
 * service on 80 generated homes (seed 23), the SDK clients of both eras, and raw JSON-RPC posts as a
 * hand-written client sends them.
 */
import { startFixture, type Fixture } from '../../support/fixture';
import { jsonRpcMessage } from '../../support/json-rpc-answer';

export const MODERN = '2026-07-28';

export const startEraFixture = (): Promise<Fixture> => startFixture({ homes: 80, seed: 23 });

export const envelope = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

/** The clients and raw posts of the tests, on the fixture the file started (read when called). */
export function mcpWire(fixture: () => Fixture) {
  /** The SDK v2 client pinned to 2026-07-28, and the SDK 1.x client on 2025-11-25 (test/support/fixture.ts). */
  const modernClient = (capabilities: Record<string, unknown> = {}) => fixture().mcpModern(capabilities);
  const legacyClient = () => fixture().mcp();

  async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string; json: any }> {
    const res = await fetch(fixture().url + '/mcp/public', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = jsonRpcMessage(text);
    } catch {
      /* empty */
    }
    return { status: res.status, text, json };
  }

  /** A 2026-07-28 request as a hand-written client sends it: envelope in the body, the standard headers. */
  function modernPost(method: string, params: Record<string, unknown>, name?: string, id: number | string = 7) {
    const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
    if (name !== undefined) headers['mcp-name'] = name;
    return post({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } }, headers);
  }

  return { modernClient, legacyClient, post, modernPost };
}
