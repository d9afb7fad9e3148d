/**
 * Per-client rate limits (the contract's "Limits"; decisions: rate limits): past its bucket a GET
 * answers 429 with Retry-After and the error object, and the tool server refuses every message at the
 * door with 429; a tool call whose weight the bucket cannot pay is an error result with the same code;
 * the availability overview's bucket is the stricter one and is counted as well.
 */
import { startFixture, type Fixture } from '../support/fixture';
import { jsonRpcOf } from '../support/json-rpc-answer';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 20, env: { RATE_LIMIT_POINTS: '3', RATE_LIMIT_OVERVIEW_POINTS: '1', TRUSTED_PROXIES: 'loopback' } });
});

afterAll(async () => {
  await fx?.close();
});

describe('rate limits', () => {
  it('answers the GET past the bucket with 429, Retry-After and the error object, and counts tool calls in the same bucket', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await fx.get('/api/public/policies-faq'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const limited = await fx.get('/api/public/markets');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toEqual({ error: { code: 'rate_limited', message: expect.stringMatching(/retry in \d+ s/) } });

    // The same client's tool-server messages are refused at the door, before their bodies are read.
    const refused = await fetch(`${fx.url}/mcp/public`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_policies_faq_tool', arguments: {} } }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/retry in \d+ s/) } });
  });

  it('counts the availability overview in its stricter bucket too: past its own, a call is a rate_limited result', async () => {
    // A client of its own (the default bucket above is spent): one overview call fits its bucket of 1.
    const market = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const call = async (id: number) => {
      const res = await fetch(`${fx.url}/mcp/public`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': '10.44.0.1' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'availability_overview_tool', arguments: { market, per_page: 5 } } }),
      });
      return (await jsonRpcOf(res)) as { result: { isError?: boolean; content: Array<{ text: string }> } };
    };
    const first = await call(1);
    expect(first.result.isError).toBeFalsy();
    const second = await call(2);
    expect(second.result.isError).toBe(true);
    const { error } = JSON.parse(second.result.content[0].text) as { error: { code: string; message: string } };
    expect(error).toEqual({ code: 'rate_limited', message: expect.stringMatching(/retry in \d+ s/) });
    const metrics = await (await fetch(`${fx.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/^catalog_rate_limit_refusals_total\{bucket="overview"\} 1$/m);
  });
});
