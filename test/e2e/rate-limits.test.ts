/**
 * Per-client rate limits (spec "Limits"; decisions: rate limits): past its bucket a GET answers 429
 * with Retry-After and the error object, a tool call an error result with the same code; the
 * availability overview's bucket is the stricter one and is counted apart.
 */
import { startFixture, type Fixture } from '../support/fixture';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 20, env: { RATE_LIMIT_POINTS: '3', RATE_LIMIT_OVERVIEW_POINTS: '1' } });
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

    const client = await fx.mcp();
    const result = await client.callTool({ name: 'get_policies_faq_tool', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0].text).error.code).toBe('rate_limited');
  });

  it('counts the availability overview apart, in its stricter bucket: served with the default bucket spent, refused past its own', async () => {
    // The default bucket is spent by the test above; the overview's one call is still served.
    expect((await fx.get('/api/public/markets')).status).toBe(429);
    const market = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const client = await fx.mcp();
    const call = () => client.callTool({ name: 'availability_overview_tool', arguments: { market, per_page: 5 } });
    const first = await call();
    expect(first.isError).toBeFalsy();
    const second = await call();
    expect(second.isError).toBe(true);
    const { error } = JSON.parse((second.content as Array<{ text: string }>)[0].text) as { error: { code: string; message: string } };
    expect(error).toEqual({ code: 'rate_limited', message: expect.stringMatching(/retry in \d+ s/) });
    const metrics = await (await fetch(`${fx.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/^catalog_rate_limit_refusals_total\{bucket="overview"\} 1$/m);
  });
});
