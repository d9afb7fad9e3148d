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
});
