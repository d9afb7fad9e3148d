/**
 * POST /mcp/public is robust and changes nothing it refuses, on both protocol eras: Object.prototype
 * names as methods, tools and arguments, params that do not fit, HTTP-level refusals, CORS preflight,
 * notifications, a foreign Origin and a foreign Host (setup: test/e2e/shared/mcp-wire.ts).
 */
import { request as httpRequest } from 'node:http';
import type { Fixture } from '../support/fixture';
import { mcpWire, startEraFixture } from './shared/mcp-wire';

let fx: Fixture;

beforeAll(async () => {
  fx = await startEraFixture();
});
afterAll(async () => {
  await fx?.close();
});

const { post, modernPost } = mcpWire(() => fx);

describe('the endpoint is robust and changes nothing it refuses', () => {
  const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

  it.each(PROTOTYPE_NAMES.map((n) => [n]))('method %s is an unknown method on both eras, never a 5xx', async (name) => {
    const legacy = await post({ jsonrpc: '2.0', id: 1, method: name });
    expect(legacy.status).toBeLessThan(500);
    expect(legacy.json.error.code).toBe(-32601);
    const modern = await modernPost(name, {});
    expect(modern.status).toBeLessThan(500);
    expect(modern.json.error.code).toBe(-32601);
  });

  it.each(PROTOTYPE_NAMES.map((n) => [n]))('tool %s is an unknown tool on both eras, never a 5xx', async (name) => {
    const legacy = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } });
    expect(legacy.status).toBeLessThan(500);
    expect(legacy.json.error.code).toBe(-32602);
    const modern = await modernPost('tools/call', { name, arguments: {} }, name);
    expect(modern.status).toBeLessThan(500);
    expect(modern.json.error.code).toBe(-32602);
  });

  it('answers prompts/get with a non-text argument and a list with a non-text cursor with -32602 in one line, on both eras', async () => {
    for (const [method, params] of [
      ['prompts/get', { name: 'find_a_stay', arguments: { place: 5 } }],
      ['tools/list', { cursor: 3 }],
      ['resources/list', { cursor: null }],
    ] as const) {
      for (const answer of [
        await post({ jsonrpc: '2.0', id: 'c-1', method, params }),
        await modernPost(method, params, method === 'prompts/get' ? 'find_a_stay' : undefined, 'c-1'),
      ]) {
        expect(answer.status).toBeLessThan(500);
        expect(answer.json).toEqual(
          expect.objectContaining({ id: 'c-1', error: expect.objectContaining({ code: -32602, message: expect.stringMatching(/^Invalid params for /) }) }),
        );
      }
    }
  });

  it('names an argument called after an Object.prototype member as unknown, in plain words', async () => {
    const res = await modernPost(
      'tools/call',
      { name: 'search_apartments_tool', arguments: { market: 'x', constructor: '2027-01-10' } },
      'search_apartments_tool',
    );
    const message = JSON.parse(res.json.result.content[0].text).error.message as string;
    expect(message).toBe('Unknown argument "constructor".');
  });

  it('gives an HTTP-level refusal the request id too (a 2025 call that does not accept event streams)', async () => {
    const res = await post({ jsonrpc: '2.0', id: 'h-1', method: 'tools/list' }, { accept: 'application/json' });
    expect(res.status).toBe(406);
    expect(res.json.id).toBe('h-1');
  });

  it('lets a browser client send the 2026-07-28 headers (CORS preflight)', async () => {
    const res = await fetch(fx.url + '/mcp/public', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,mcp-protocol-version,mcp-method,mcp-name',
      },
    });
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const h of ['mcp-protocol-version', 'mcp-method', 'mcp-name']) expect(allowed).toContain(h);
  });

  it('answers a notification with 202 and no body', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('refuses a foreign Origin with 403 and a JSON-RPC error carrying the id, and saves nothing', async () => {
    const email = `origin-${Date.now()}@example.com`;
    const res = await post(
      { jsonrpc: '2.0', id: 'o-1', method: 'tools/call', params: { name: 'booking_intent_tool', arguments: { email, guest_consent: true } } },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 'o-1', error: { code: -32000, message: expect.stringMatching(/Origin not allowed/) } });
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(0);
  });

  it('refuses a foreign Host on a loopback listener (DNS rebinding) and serves loopback origins', async () => {
    // fetch() sets Host itself: a raw request sends the rebound name.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        fx.url + '/mcp/public',
        { method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }));
    });
    expect(status).toBe(403);
    const local = await post({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, { origin: fx.url });
    expect(local.status).toBe(200);
  });
});
