/**
 * The fast path of a plain tools/call (services/transports/mcp/fast-tool-call.ts) answers exactly what
 * the SDK answers: the same service on the same world with the fast path off is asked the same call of
 * every tool, on both eras and with an invalid argument, and the two answers must be equal.
 */
import { startService, type RunningService } from '../../services/main';
import { TOOLS } from '../../services/tools/registry';
import { startFixture, type Fixture } from '../support/fixture';
import { TOOL_SAMPLES, worldSamples, type SampleSource } from '../support/tool-samples';
import { jsonRpcOf } from '../support/json-rpc-answer';

const MODERN = '2026-07-28';
let fx: Fixture;
let sdkOnly: RunningService;
let samples: SampleSource;

beforeAll(async () => {
  fx = await startFixture({ homes: 80, seed: 29 });
  sdkOnly = await startService({ ...fx.config, mcpFastToolCalls: false });
  samples = await worldSamples(fx, { homes: 20 });
});
afterAll(async () => {
  await sdkOnly?.close();
  await fx?.close();
});

type Era = 'legacy' | 'legacy-with-version' | 'modern';

function request(era: Era, name: string, args: Record<string, unknown>, id: number): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const params: Record<string, unknown> = { name, arguments: args };
  if (era === 'legacy-with-version') headers['mcp-protocol-version'] = '2025-11-25';
  if (era === 'modern') {
    Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name });
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    };
  }
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }) };
}

async function answer(base: string, req: { headers: Record<string, string>; body: string }): Promise<{ status: number; type: string | null; json: unknown }> {
  const res = await fetch(base + '/mcp/public', { method: 'POST', headers: req.headers, body: req.body });
  return { status: res.status, type: res.headers.get('content-type'), json: await jsonRpcOf(res) };
}

// The writes answer a new id and token each call: they are compared by the tests of their own.
const READS = TOOLS.filter((t) => !['booking_intent_tool', 'watch_search_tool'].includes(t.name)).map((t) => t.name);
const ERAS: Era[] = ['legacy', 'legacy-with-version', 'modern'];

describe('a plain tools/call answers what the SDK answers', () => {
  it.each(READS.flatMap((name) => ERAS.map((era) => [name, era] as const)))('%s on %s', async (name, era) => {
    const args = TOOL_SAMPLES[name](samples);
    const req = request(era, name, args, 41);
    const [fast, sdk] = [await answer(fx.url, req), await answer(sdkOnly.url, req)];
    expect(fast).toEqual(sdk);
    expect(fast.status).toBe(200);
  });

  it.each(ERAS.map((era) => [era]))('an invalid argument is the same isError result on %s', async (era) => {
    const req = request(era, 'get_policies_faq_tool', { topic: 'weather' }, 'x-1' as unknown as number);
    const [fast, sdk] = [await answer(fx.url, req), await answer(sdkOnly.url, req)];
    expect(fast).toEqual(sdk);
    expect((fast.json as { result: { isError: boolean } }).result.isError).toBe(true);
  });
});

describe('the answers every caller gets alike come from a prepared buffer, equal to what the SDK answers', () => {
  const widgetUris = ['ui://furnished-catalog/search-cards.html', 'ui://furnished-catalog/search-map.html'];
  const shapes: Array<[string, Record<string, unknown>, string | undefined]> = [
    ['tools/list', {}, undefined],
    ['resources/list', {}, undefined],
    ['resources/templates/list', {}, undefined],
    ['prompts/list', {}, undefined],
    ...widgetUris.map((uri): [string, Record<string, unknown>, string] => ['resources/read', { uri }, uri]),
  ];

  function message(era: Era, method: string, params: Record<string, unknown>, name: string | undefined, id: string | number) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const withMeta = { ...params };
    if (era === 'legacy-with-version') headers['mcp-protocol-version'] = '2025-11-25';
    if (era === 'modern') {
      Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
      withMeta._meta = {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
      };
    }
    return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: withMeta }) };
  }

  it.each(shapes.flatMap(([method, params, name]) => ERAS.map((era) => [method, name ?? '', era, params] as const)))(
    '%s %s on %s, asked twice with different ids',
    async (method, name, era, params) => {
      for (const id of [7, 'call-8']) {
        const req = message(era, method, params, name || undefined, id);
        const [buffered, sdk] = [await answer(fx.url, req), await answer(sdkOnly.url, req)];
        expect(buffered).toEqual(sdk);
        expect(buffered.status).toBe(200);
        expect((buffered.json as { id: unknown }).id).toBe(id);
      }
    },
  );

  it('leaves a read of an unknown resource to the SDK: the same error', async () => {
    const req = message('legacy', 'resources/read', { uri: 'ui://furnished-catalog/nothing.html' }, undefined, 3);
    const [buffered, sdk] = [await answer(fx.url, req), await answer(sdkOnly.url, req)];
    expect(buffered).toEqual(sdk);
    expect((buffered.json as { error?: unknown }).error).toBeDefined();
  });
});
