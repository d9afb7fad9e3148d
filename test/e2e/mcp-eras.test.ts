/**
 * POST /mcp/public speaks both protocol eras on one endpoint: the SDK v2 client on 2026-07-28 (no
 * handshake, `_meta` envelope) and the SDK 1.x client on 2025-11-25 (initialize) each call every tool
 * of the registry and read both widgets, with the same answers; the 2026-07-28 rules (envelope,
 * headers, discover, caching hints, params that do not fit) are checked on the wire
 * (setup: test/e2e/shared/mcp-wire.ts).
 */
import { TOOLS } from '../../services/tools/registry';
import { WIDGETS } from '../../services/widgets/catalog';
import type { Fixture } from '../support/fixture';
import { TOOL_SAMPLES, worldSamples, type SampleSource } from '../support/tool-samples';
import { MODERN, envelope, mcpWire, startEraFixture } from './shared/mcp-wire';

let fx: Fixture;
let samples: SampleSource;

beforeAll(async () => {
  fx = await startEraFixture();
  samples = await worldSamples(fx, { homes: 20 });
});
afterAll(async () => {
  await fx?.close();
});

const { modernClient, legacyClient, post, modernPost } = mcpWire(() => fx);

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
    } else if (name === 'watch_search_tool' && !legacy.isError) {
      // Each call saves a watch of its own: the same search and terms, a new id and token (a capability, never repeated).
      const { watch_id, token, feed_url, atom_url, unwatch_url, ...terms } = legacy.structuredContent as Record<string, unknown>;
      const fresh = modern.structuredContent as Record<string, unknown>;
      expect(fresh).toEqual(expect.objectContaining(terms));
      expect([fresh.watch_id, fresh.token]).not.toEqual([watch_id, token]);
      expect([feed_url, atom_url, unwatch_url].every((u) => String(u).includes(String(token)))).toBe(true);
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
    const got = await (
      await modernClient()
    ).getPrompt({ name: 'find_a_stay', arguments: { place: 'Austin', start_date: '2027-03-01', end_date: '2027-04-01' } });
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
    const wrongMethod = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope() } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'prompts/list' },
    );
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
    expect(json).toEqual(
      expect.objectContaining({ id: 'p-1', error: expect.objectContaining({ code: -32602, message: expect.stringMatching(/^Invalid params for /) }) }),
    );
    expect(json.error.message).not.toMatch(/\n|invalid_type/);
  });

  it('answers an unknown resource with -32602 and the URI in data', async () => {
    const uri = 'ui://furnished-catalog/none.html';
    const { json } = await modernPost('resources/read', { uri }, uri);
    expect(json.error).toEqual(expect.objectContaining({ code: -32602, data: { uri } }));
  });
});
