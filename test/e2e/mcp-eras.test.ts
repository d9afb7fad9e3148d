/**
 * POST /mcp/public speaks both protocol eras on one endpoint: the SDK v2 client on 2026-07-28 (no
 * handshake, `_meta` envelope) and the SDK 1.x client on 2025-11-25 (initialize) each call every tool
 * of the registry and read both widgets, with the same answers. The endpoint's own rules (envelope,
 * headers, discover, Origin, notifications, prototype names, the guest's confirmation) are checked
 * on the wire.
 */
import { request as httpRequest } from 'node:http';
import { TOOLS } from '../../services/tools/registry';
import { WIDGETS } from '../../services/widgets/catalog';
import { startFixture, type Fixture } from '../support/fixture';
import { TOOL_SAMPLES, worldSamples, type SampleSource } from '../support/tool-samples';
import { jsonRpcMessage } from '../support/json-rpc-answer';

const MODERN = '2026-07-28';
let fx: Fixture;
let samples: SampleSource;

beforeAll(async () => {
  fx = await startFixture({ homes: 80, seed: 23 });
  samples = await worldSamples(fx, { homes: 20 });
});
afterAll(async () => {
  await fx?.close();
});

/** The SDK v2 client pinned to 2026-07-28, and the SDK 1.x client on 2025-11-25 (test/support/fixture.ts). */
const modernClient = (capabilities: Record<string, unknown> = {}) => fx.mcpModern(capabilities);
const legacyClient = () => fx.mcp();

const envelope = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(fx.url + '/mcp/public', {
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

describe('both eras call every tool and read both widgets', () => {
  it('the SDK v2 client negotiates 2026-07-28 without a handshake', async () => {
    const client = await modernClient();
    expect(client.getProtocolEra()).toBe('modern');
  });

  it.each(TOOLS.map((t) => [t.name]))('%s answers the same on 2026-07-28 (SDK v2) and 2025-11-25 (SDK 1.x)', async (name) => {
    const args = TOOL_SAMPLES[name](samples);
    if (name === 'booking_intent_tool') args.email = `era-${Date.now()}@example.com`;
    const modern = await (await modernClient()).callTool({ name, arguments: args });
    const legacy = await (await legacyClient()).callTool({ name, arguments: args });
    expect(modern.isError ?? false).toBe(legacy.isError ?? false);
    if (name === 'booking_intent_tool') {
      expect(modern.structuredContent).toEqual(expect.objectContaining({ intent_id: (legacy.structuredContent as { intent_id: string }).intent_id }));
    } else {
      expect(modern.structuredContent).toEqual(legacy.structuredContent);
      expect(modern.content).toEqual(legacy.content);
    }
  });

  it.each(WIDGETS.map((w) => [w.uri]))('reads the widget %s on both eras, byte for byte', async (uri) => {
    const modern = await (await modernClient()).readResource({ uri });
    const legacy = await (await legacyClient()).readResource({ uri });
    expect(modern.contents[0]).toEqual(legacy.contents[0]);
    expect((modern.contents[0] as { mimeType: string }).mimeType).toBe('text/html;profile=mcp-app');
  });

  it('offers the prompts on both eras, written with the registry tool names', async () => {
    const modern = await (await modernClient()).listPrompts();
    const legacy = await (await legacyClient()).listPrompts();
    expect(modern.prompts.map((p) => p.name)).toEqual(['find_a_stay', 'compare_shortlist', 'flex_or_fixed']);
    expect(legacy.prompts).toEqual(modern.prompts);
    const got = await (await modernClient()).getPrompt({ name: 'find_a_stay', arguments: { place: 'Austin', start_date: '2027-03-01', end_date: '2027-04-01' } });
    const text = (got.messages[0].content as { text: string }).text;
    for (const tool of ['list_markets_tool', 'search_apartments_tool', 'get_quote_tool']) expect(text).toContain(tool);
    await expect((await modernClient()).getPrompt({ name: 'find_a_stay', arguments: {} })).rejects.toThrow(/needs place/);
  });
});

describe('2026-07-28 on the wire', () => {
  it('server/discover names 2026-07-28 and exactly the capabilities the server honours, cacheable', async () => {
    const { status, json } = await modernPost('server/discover', {});
    expect(status).toBe(200);
    expect(json.result.supportedVersions).toContain(MODERN);
    expect(json.result.capabilities).toEqual({
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
      prompts: { listChanged: false },
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
    expect(json.result).toEqual(expect.objectContaining({ resultType: 'complete', ttlMs: 300000, cacheScope: 'public' }));
  });

  it.each(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'])('%s carries resultType and caching hints', async (method) => {
    const { status, json } = await modernPost(method, {});
    expect(status).toBe(200);
    expect(json.result).toEqual(expect.objectContaining({ resultType: 'complete', ttlMs: 300000, cacheScope: 'public' }));
  });

  it('refuses a request without _meta, protocol version or client capabilities with -32602, HTTP 400 and its id', async () => {
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };
    for (const meta of [undefined, { 'io.modelcontextprotocol/clientCapabilities': {} }, { 'io.modelcontextprotocol/protocolVersion': MODERN }]) {
      const { status, json } = await post({ jsonrpc: '2.0', id: 'req-41', method: 'tools/list', params: meta ? { _meta: meta } : {} }, headers);
      expect(status).toBe(400);
      expect(json).toEqual(expect.objectContaining({ id: 'req-41', error: expect.objectContaining({ code: -32602 }) }));
    }
  });

  it('checks Mcp-Method and Mcp-Name against the body: -32020 on a mismatch, surrounding spaces tolerated', async () => {
    const wrongMethod = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope() } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'prompts/list' });
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.json).toEqual(expect.objectContaining({ id: 3, error: expect.objectContaining({ code: -32020 }) }));
    const wrongName = await modernPost('tools/call', { name: 'list_markets_tool', arguments: {} }, 'get_quote_tool', 4);
    expect(wrongName.status).toBe(400);
    expect(wrongName.json.error.code).toBe(-32020);
    const padded = await modernPost('tools/call', { name: 'list_markets_tool', arguments: {} }, '  list_markets_tool  ', 5);
    expect(padded.status).toBe(200);
    expect(padded.json.result.structuredContent.markets.length).toBeGreaterThan(0);
  });

  it.each([
    ['resources/read', {}],
    ['prompts/get', {}],
    ['tools/call', { name: 42 }],
    ['tools/call', { name: 'list_markets_tool', arguments: [] }],
  ])('answers %s with params that do not fit (%j) with -32602 in one line, never an internal error', async (method, params) => {
    const { status, json } = await modernPost(method, params, typeof (params as { name?: unknown }).name === 'string' ? 'list_markets_tool' : undefined, 'p-1');
    expect(status).toBeLessThan(500);
    expect(json).toEqual(expect.objectContaining({ id: 'p-1', error: expect.objectContaining({ code: -32602, message: expect.stringMatching(/^Invalid params for /) }) }));
    expect(json.error.message).not.toMatch(/\n|invalid_type/);
  });

  it('answers an unknown resource with -32602 and the URI in data', async () => {
    const uri = 'ui://furnished-catalog/none.html';
    const { json } = await modernPost('resources/read', { uri }, uri);
    expect(json.error).toEqual(expect.objectContaining({ code: -32602, data: { uri } }));
  });
});

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
    for (const [method, params] of [['prompts/get', { name: 'find_a_stay', arguments: { place: 5 } }], ['tools/list', { cursor: 3 }], ['resources/list', { cursor: null }]] as const) {
      for (const answer of [await post({ jsonrpc: '2.0', id: 'c-1', method, params }), await modernPost(method, params, method === 'prompts/get' ? 'find_a_stay' : undefined, 'c-1')]) {
        expect(answer.status).toBeLessThan(500);
        expect(answer.json).toEqual(expect.objectContaining({ id: 'c-1', error: expect.objectContaining({ code: -32602, message: expect.stringMatching(/^Invalid params for /) }) }));
      }
    }
  });

  it('names an argument called after an Object.prototype member as unknown, in plain words', async () => {
    const res = await modernPost('tools/call', { name: 'search_apartments_tool', arguments: { market: 'x', constructor: '2027-01-10' } }, 'search_apartments_tool');
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
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,mcp-protocol-version,mcp-method,mcp-name' },
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
      const req = httpRequest(fx.url + '/mcp/public', { method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }));
    });
    expect(status).toBe(403);
    const local = await post({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, { origin: fx.url });
    expect(local.status).toBe(200);
  });
});

describe('the guest confirms what a booking intent saves, where the client can ask', () => {
  const intentArgs = (email: string) => ({ email, phone: '+1 415 555 0100', name: 'Ada Guest', guest_consent: true });

  it('asks with the exact details and saves on an accepted answer', async () => {
    const asked: Array<{ message: string }> = [];
    const client = await modernClient({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as { message: string });
      return { action: 'accept', content: { confirm: true } };
    });
    const email = `confirm-yes-${Date.now()}@example.com`;
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(res.isError ?? false).toBe(false);
    expect(res.structuredContent).toEqual(expect.objectContaining({ email, phone: '+14155550100', name: 'Ada Guest' }));
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toContain(`email: "${email}"`);
    expect(asked[0].message).toContain('phone: "+14155550100"');
    expect(asked[0].message).toContain('name: "Ada Guest"');
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(1);
  });

  it.each(['decline', 'cancel'] as const)('saves nothing and says so when the guest answers %s', async (action) => {
    const client = await modernClient({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action }));
    const email = `confirm-${action}-${Date.now()}@example.com`;
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(res.isError).toBe(true);
    expect(JSON.parse((res.content as Array<{ text: string }>)[0].text)).toEqual({ error: { code: 'consent_declined', message: expect.stringMatching(/nothing was saved/) } });
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(0);
  });

  it('saves nothing when the form comes back unticked', async () => {
    const client = await modernClient({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: false } }));
    const email = `confirm-unticked-${Date.now()}@example.com`;
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(res.isError).toBe(true);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(0);
  });

  it('refuses a call bound to fail before the guest is asked', async () => {
    const client = await modernClient({ elicitation: { form: {} } });
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked += 1;
      return { action: 'accept', content: { confirm: true } };
    });
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: { ...intentArgs(`confirm-nohome-${Date.now()}@example.com`), home_slug: 'no-such-home' } });
    expect(JSON.parse((res.content as Array<{ text: string }>)[0].text).error.code).toBe('home_not_found');
    expect(asked).toBe(0);
  });

  it('honours a decline even from a client that did not declare elicitation, and an answer only for the call it was given for', async () => {
    const email = `confirm-raw-${Date.now()}@example.com`;
    const args = intentArgs(email);
    const ask = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'booking_intent_tool', arguments: args, _meta: envelope({ elicitation: {} }) } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'booking_intent_tool' },
    );
    expect(ask.json.result.resultType).toBe('input_required');
    const state = ask.json.result.requestState as string;
    const retry = (meta: Record<string, unknown>, answer: Record<string, unknown>, callArgs: Record<string, unknown>) =>
      post(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'booking_intent_tool', arguments: callArgs, _meta: meta, inputResponses: { guest_confirmation: answer }, requestState: state } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'booking_intent_tool' },
      );
    const declined = await retry(envelope(), { action: 'decline' }, args);
    expect(JSON.parse(declined.json.result.content[0].text).error.code).toBe('consent_declined');
    const otherCall = await retry(envelope({ elicitation: {} }), { action: 'accept', content: { confirm: true } }, { ...args, name: 'Someone Else' });
    expect(JSON.parse(otherCall.json.result.content[0].text).error.message).toMatch(/not one given for this call/);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(0);
    const accepted = await retry(envelope({ elicitation: {} }), { action: 'accept', content: { confirm: true } }, args);
    expect(accepted.json.result.structuredContent.email).toBe(email);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(1);
  });

  it('does not ask a client without elicitation, nor for consent that was never given', async () => {
    const client = await modernClient();
    const email = `confirm-none-${Date.now()}@example.com`;
    const saved = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(saved.isError ?? false).toBe(false);
    const asker = await modernClient({ elicitation: { form: {} } });
    let asked = 0;
    asker.setRequestHandler('elicitation/create', async () => {
      asked += 1;
      return { action: 'accept', content: { confirm: true } };
    });
    const refused = await asker.callTool({ name: 'booking_intent_tool', arguments: { ...intentArgs(`x-${email}`), guest_consent: false } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0].text).error.code).toBe('consent_required');
    expect(asked).toBe(0);
  });
});
