/**
 * Rules of the 2026-07-28 revision not covered by the era comparison, on the wire: caching hints on
 * `resources/read` as on every list, `ping` gone from the revision (still answered on 2025), and the
 * SDK's Host middleware running behind our own check.
 */
import { request as httpRequest } from 'node:http';
import { WIDGETS } from '../../services/widgets/catalog';
import { startFixture, type Fixture } from '../support/fixture';
import { jsonRpcMessage } from '../support/json-rpc-answer';

const MODERN = '2026-07-28';
let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 20, seed: 41 });
});
afterAll(async () => {
  await fx?.close();
});

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
type Answer = { status: number; json: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } } };

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(fx.url + '/mcp/public', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: jsonRpcMessage(await res.text()) };
}

function modernPost(method: string, params: Record<string, unknown>, name?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) };
  return post({ jsonrpc: '2.0', id: 'r-1', method, params: { ...params, _meta: ENVELOPE } }, headers);
}

describe('2026-07-28 results', () => {
  it.each(WIDGETS.map((w) => [w.uri]))('resources/read of %s carries resultType and caching hints, asked twice', async (uri) => {
    for (let i = 0; i < 2; i++) {
      const { status, json } = await modernPost('resources/read', { uri }, uri);
      expect(status).toBe(200);
      expect(json.result).toEqual(expect.objectContaining({ resultType: 'complete', ttlMs: 300000, cacheScope: 'public' }));
    }
  });

  it("refuses a tool call whose Mcp-Name header names another tool, the error carrying the request's id", async () => {
    const { status, json } = await post(
      { jsonrpc: '2.0', id: 'r-name', method: 'tools/call', params: { name: 'list_markets_tool', arguments: {} } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_quote_tool' },
    );
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(json).toEqual(expect.objectContaining({ id: 'r-name', error: expect.objectContaining({ code: expect.any(Number) }) }));
  });

  it('has no ping: -32601 on 2026-07-28, an empty result on 2025', async () => {
    const modern = await modernPost('ping', {});
    expect(modern.status).toBeLessThan(500);
    expect(modern.json).toEqual(expect.objectContaining({ id: 'r-1', error: expect.objectContaining({ code: -32601 }) }));
    const legacy = await post({ jsonrpc: '2.0', id: 'p-1', method: 'ping' });
    expect(legacy.status).toBe(200);
    expect(legacy.json).toEqual({ jsonrpc: '2.0', id: 'p-1', result: {} });
  });
});

describe('Origin and Host', () => {
  it('runs the SDK Host middleware too: a loopback name it does not know is refused with 403 and the request id', async () => {
    // fetch() sets Host itself: a raw request sends the name.
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const headers = { host: 'app.localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const req = httpRequest(fx.url + '/mcp/public', { method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 'h-2', method: 'tools/list' }));
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toEqual(
      expect.objectContaining({ id: 'h-2', error: expect.objectContaining({ message: expect.stringMatching(/Invalid Host/) }) }),
    );
  });
});
