/**
 * Every JSON-RPC message to the tool server is counted at the door, weighed by what it costs, and one
 * POST is one message: batches are refused on every protocol version the endpoint speaks. The GET API
 * weighs its routes the same way.
 */
import { startFixture, type Fixture } from '../support/fixture';
import { jsonRpcMessage } from '../support/json-rpc-answer';

const POINTS = 5;
let fx: Fixture;
let clientNo = 0;
/** A client address no other test uses (the fixture's service trusts loopback's X-Forwarded-For). */
const newClient = (): string => `10.32.0.${++clientNo}`;

const LEGACY_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-11-25' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'admission-test', version: '1.0.0' },
};

function modernHeaders(method: string, name?: string): Record<string, string> {
  return { ...LEGACY_HEADERS, 'Mcp-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) };
}

async function post(client: string, body: unknown, headers: Record<string, string> = LEGACY_HEADERS) {
  const res = await fetch(`${fx.url}/mcp/public`, { method: 'POST', headers: { ...headers, 'X-Forwarded-For': client }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? jsonRpcMessage(text) : null };
}

beforeAll(async () => {
  fx = await startFixture({
    homes: 20,
    env: { RATE_LIMIT_POINTS: String(POINTS), RATE_LIMIT_SHARED: 'false', RATE_LIMIT_WINDOW_SECONDS: '300', TRUSTED_PROXIES: 'loopback' },
  });
}, 120_000);

afterAll(async () => {
  await fx?.close();
});

describe('POST /mcp/public: every message counted', () => {
  it('counts tools/list: past the bucket it answers 429 with Retry-After and a JSON-RPC error naming the request', async () => {
    const client = newClient();
    const statuses = [];
    for (let id = 1; id <= POINTS + 1; id++) statuses.push((await post(client, { jsonrpc: '2.0', id, method: 'tools/list' })).status);
    expect(statuses).toEqual([...Array(POINTS).fill(200), 429]);
    // Refused at the door, before its body is read: the error names no id.
    const refused = await post(client, { jsonrpc: '2.0', id: 'last', method: 'tools/list' });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/retry in \d+ s/) } });
  });

  it('counts initialize, resources/read, prompts/list and a call of an unknown tool alike', async () => {
    const client = newClient();
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'ui://furnished-catalog/search-cards.html' } },
      { jsonrpc: '2.0', id: 3, method: 'prompts/list' },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
    ];
    for (const m of messages) expect((await post(client, m)).status).toBe(200);
    expect((await post(client, { jsonrpc: '2.0', id: 6, method: 'ping' })).status).toBe(429);
  });

  it('weighs a tool call by its cost: after a viewport search (4 points of 5) a search (2) pays its door point and is refused the rest', async () => {
    const client = newClient();
    const map = { name: 'search_apartments_on_map', arguments: { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 } };
    const first = await post(client, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: map });
    expect(first.body.result.isError).toBeFalsy();
    const market = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const second = await post(client, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_apartments_tool', arguments: { market } } });
    // A tool call refused the rest of its weight is still a tool result: the model reads when to retry.
    expect(second.status).toBe(200);
    expect(second.body.result.isError).toBe(true);
    expect(JSON.parse(second.body.result.content[0].text).error.code).toBe('rate_limited');
    // Nothing is left: the next message is refused at the door.
    expect((await post(client, { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(429);
  });

  it('counts the booking confirmation round before it reads anything: an exhausted client is refused, not asked', async () => {
    // The round is a tools/call like any other: its door point is taken before the body is read.
    const client = newClient();
    for (let id = 1; id <= POINTS; id++) expect((await post(client, { jsonrpc: '2.0', id, method: 'ping' })).status).toBe(200);
    const args = { email: 'guest@example.com', guest_consent: true };
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const answer = await post(
      client,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'booking_intent_tool', arguments: args, _meta: meta } },
      modernHeaders('tools/call', 'booking_intent_tool'),
    );
    // Refused at the door: no question asked, nothing read or saved.
    expect(answer.status).toBe(429);
    expect(answer.body.error.message).toMatch(/retry in \d+ s/);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({})).toBe(0);
  });
});

describe('POST /mcp/public: one message per POST', () => {
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];

  it.each([
    ['2025-06-18', { ...LEGACY_HEADERS, 'Mcp-Protocol-Version': '2025-06-18' }],
    ['2025-11-25', LEGACY_HEADERS],
    ['2026-07-28', modernHeaders('tools/list')],
  ])('refuses a batch under %s with 400 and JSON-RPC -32600, answering none of it', async (_version, headers) => {
    const answer = await post(newClient(), batch, headers);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/Batches are not supported/) } });
  });
});

describe('GET /api/public: routes weighed by their tool', () => {
  it('takes 4 points for a viewport search and 1 for the markets list', async () => {
    const client = newClient();
    const get = async (path: string) => {
      const res = await fetch(`${fx.url}${path}`, { headers: { 'X-Forwarded-For': client } });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await get('/api/public/map-search?sw_latitude=24&sw_longitude=-125&ne_latitude=50&ne_longitude=-66&zoom=4')).toBe(200);
    expect(await get('/api/public/markets')).toBe(200);
    expect(await get('/api/public/markets')).toBe(429);
  });
});
