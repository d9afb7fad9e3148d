/**
 * The markets listing is read once per index generation for every request (search/markets/market-searches.ts):
 * no request pays for its aggregation over every shard, so a client that lists the markets again and again
 * spends a point a call however Elasticsearch time is priced, and a search still pays for its own.
 */
import { startFixture, type Fixture } from '../support/fixture';

let fx: Fixture;

beforeAll(async () => {
  // A point per shard-ms: the listing's aggregation over 12 shards would cost tens of points a call were it anyone's.
  fx = await startFixture({ homes: 30, env: { RATE_LIMIT_POINTS: '20', RATE_LIMIT_ES_MS_PER_POINT: '1', TRUSTED_PROXIES: 'loopback' } });
});

afterAll(async () => {
  await fx?.close();
});

describe('the markets listing as a client pays for it', () => {
  it('answers the same listing 15 times within a bucket of 20 points, while searches spend the rest', async () => {
    const first = await fx.get('/api/public/markets');
    expect(first.status).toBe(200);
    const market = (first.body as { markets: Array<{ slug: string }> }).markets[0].slug;
    for (let i = 0; i < 14; i++) {
      const again = await fx.get('/api/public/markets');
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    }
    // The same bucket, now nearly spent: a search over the market's shard pays its Elasticsearch time too.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await fx.get(`/api/public/search?market=${market}&page=${(i % 3) + 1}`)).status);
    expect(statuses).toContain(429);
  });
});
