/**
 * The search transport against the real Elasticsearch: several searches in one `_msearch` round trip
 * answer exactly what each sent alone answers, and a round trip over a missing alias fails as a
 * single search does, so the service answers 503 before the first index build either way. Parts
 * of an answer no search reads are left out by Elasticsearch, alone or in an `_msearch`, and what
 * a search reads stays: ids, sources, sort values, totals, aggregations, an empty page's `[]`.
 */
import { testConfig, seedWorld, dropWorld } from '../support/fixture';
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { expectedOutage, toApiError } from '../../services/kernel/errors';
import { esTransport, TALLY_AGG } from '../../services/search/shared/search-transport';
import type { RoundTrip } from '../../services/search/shared/search-transport';
import { homeRouting, readRoutingKeys } from '../../services/kernel/store/home-routing';
import { runIndexerJob } from '../../indexer/runner';

let config: Config;
let mongo: MongoHandle;
let es: EsClient;

beforeAll(async () => {
  config = testConfig();
  ({ mongo, es } = await seedWorld(config, 60));
});

afterAll(async () => {
  if (mongo && es) await dropWorld(config, mongo, es);
});

const page = { size: 5, sort: [{ home_id: 'asc' as const }], _source: ['home_id'], query: { term: { bookable: true } } };
const counts = { size: 0, track_total_hits: true, aggs: { buildings: { terms: { field: 'property_id', size: 100 } } } };

describe('search transport', () => {
  it('answers an _msearch round trip in order, each answer equal to the same search sent alone, and records it as one trip', async () => {
    const trips: RoundTrip[] = [];
    const t = esTransport(es, config.homesAlias, { record: (trip) => trips.push(trip) });
    const [a, b] = await t.searchAll([page, counts]);
    const aloneA = await t.search(page);
    const aloneB = await t.search(counts);
    expect(a.hits.hits.map((h) => h._id)).toEqual(aloneA.hits.hits.map((h) => h._id));
    expect(a.hits.hits.length).toBe(5);
    expect(b.hits.total).toEqual(aloneB.hits.total);
    expect(b.aggregations).toEqual(aloneB.aggregations);
    expect(trips.map((trip) => trip.length)).toEqual([2, 1, 1]);
  });

  it('fails a round trip over a missing alias as a single search fails: both a 503 service_unavailable', async () => {
    const t = esTransport(es, `${config.homesAlias}-missing`);
    const single = await t.search(page).catch((err: unknown) => err);
    const several = await t.searchAll([page, counts]).catch((err: unknown) => err);
    expect(toApiError(single).status).toBe(503);
    expect(toApiError(several).status).toBe(503);
  });

  it('fails a search that asks a nested field an index of an earlier mapping lacks as a 503 service_unavailable, not a 500', async () => {
    const older = `${config.homesAlias}-older-mapping`;
    await es.indices.create({ index: older, mappings: { properties: { home_id: { type: 'keyword' } } } });
    try {
      const t = esTransport(es, older);
      const err = await t.search({ size: 1, query: { nested: { path: 'stay_spans', query: { match_all: {} } } } }).catch((e: unknown) => e);
      expect(expectedOutage(err)).toBe('index_outdated');
      expect(toApiError(err)).toMatchObject({ status: 503, code: 'service_unavailable', headers: { 'Retry-After': '10' } });
    } finally {
      await es.indices.delete({ index: older });
    }
  });

  it('fails the whole round trip when one of its searches is refused (no partial answer)', async () => {
    const t = esTransport(es, config.homesAlias);
    const refused = { size: 1, query: { range: { home_id: { gte: 1, format: 'not-a-date-format' } } } };
    await expect(t.searchAll([page, refused])).rejects.toThrow();
  });

  it('leaves out what no search reads, alone and in an _msearch, and keeps ids, sources, sort values, totals, empty pages and the time the rate limit settles', async () => {
    const t = esTransport(es, config.homesAlias);
    const none = { ...page, query: { term: { home_id: 'no-such-home' } } };
    const topHits = {
      size: 0,
      aggs: { by_building: { terms: { field: 'property_id', size: 2 }, aggs: { first: { top_hits: { size: 1, _source: ['home_id'] } } } } },
    };
    const [alone, [inMsearch, empty, grouped]] = [await t.search(page), await t.searchAll([page, none, topHits])];
    for (const res of [alone, inMsearch]) {
      // A search's shard-ms (took × shards) is settled on its client's budget (transports/settled-cost.ts).
      expect(res._shards).toEqual({ total: expect.any(Number) });
      expect(res.took).toEqual(expect.any(Number));
      expect(res.hits).not.toHaveProperty('max_score');
      expect(res.hits.hits).toHaveLength(5);
      for (const hit of res.hits.hits) {
        expect(Object.keys(hit).sort()).toEqual(['_id', '_source', 'sort']);
        expect(hit._source?.home_id).toBe(hit._id);
      }
    }
    expect(empty.hits.hits).toEqual([]);
    const buckets = (grouped.aggregations?.by_building as { buckets: Array<{ first: { hits: { hits: object[] } } }> }).buckets;
    expect(buckets).toHaveLength(2);
    for (const b of buckets) for (const hit of b.first.hits.hits) expect(Object.keys(hit)).toEqual(['_source']);
  });

  it(`counts the buckets of a '${TALLY_AGG}' aggregation exactly without sending them`, async () => {
    const t = esTransport(es, config.homesAlias);
    const listed = await t.search(counts);
    const tallied = await t.search({
      size: 0,
      aggs: { [TALLY_AGG]: { terms: { field: 'property_id', size: 100 } }, n: { stats_bucket: { buckets_path: `${TALLY_AGG}>_count` } } },
    });
    const aggs = tallied.aggregations as Record<string, { buckets?: unknown[]; count?: number }>;
    const buildings = (listed.aggregations?.buildings as { buckets: unknown[] }).buckets.length;
    expect(buildings).toBeGreaterThan(1);
    expect(aggs[TALLY_AGG]).not.toHaveProperty('buckets');
    expect(aggs.n.count).toBe(buildings);
  });

  it("keeps a market's search on its shard: every home is indexed under its market, and a routed search reads one shard and finds that market whole", async () => {
    const keys = await readRoutingKeys(es, config.homesAlias);
    const routingKeys = { keyOf: async (m: string) => homeRouting(m, keys) };
    const all = await es.search<{ market_slug: string }>({ index: config.homesAlias, size: 1000, _source: ['market_slug'], query: { match_all: {} } });
    expect(all.hits.hits.length).toBeGreaterThan(10);
    for (const h of all.hits.hits) expect(h._routing).toBe(homeRouting(h._source!.market_slug, keys));
    const markets = [...new Set(all.hits.hits.map((h) => h._source!.market_slug))];
    expect(markets.length).toBeGreaterThan(1);
    for (const market of markets) {
      const trips: RoundTrip[] = [];
      const t = esTransport(es, config.homesAlias, { market, routingKeys, record: (trip) => trips.push(trip) });
      const inMarket = { size: 1000, _source: ['home_id'], query: { term: { market_slug: market } } };
      const routed = await t.search(inMarket);
      const [inMsearch] = await t.searchAll([inMarket, counts]);
      expect(trips.flat().map((b) => b.routing)).toEqual([homeRouting(market, keys), homeRouting(market, keys), homeRouting(market, keys)]);
      const expected = all.hits.hits
        .filter((h) => h._source!.market_slug === market)
        .map((h) => h._id)
        .sort();
      expect(routed.hits.hits.map((h) => h._id).sort()).toEqual(expected);
      expect(inMsearch.hits.hits.map((h) => h._id).sort()).toEqual(expected);
      const shards = await es.search({ index: config.homesAlias, size: 0, routing: homeRouting(market, keys), query: { term: { market_slug: market } } });
      expect(shards._shards.total).toBe(1);
    }
  });

  it('gives every market a shard of its own while there are no more markets than shards, and keeps each key across a rebuild', async () => {
    const keys = await readRoutingKeys(es, config.homesAlias);
    const markets = (await mongo.collections.markets.find({}).toArray()).map((m) => m.slug).sort();
    expect(Object.keys(keys).sort()).toEqual(markets);
    const shardOf = async (key: string) => (await es.searchShards({ index: config.homesAlias, routing: key })).shards[0][0].shard;
    const shards = await Promise.all(markets.map((m) => shardOf(keys[m])));
    const settings = await es.indices.getSettings({ index: config.homesAlias, name: 'index.number_of_shards', flat_settings: true });
    const count = Number(Object.values(settings)[0].settings!['index.number_of_shards']);
    expect(markets.length).toBeLessThanOrEqual(count);
    expect(new Set(shards).size).toBe(markets.length);
    // Market slugs alone put two of these markets on one shard: the keys are what spreads them.
    expect(new Set(await Promise.all(markets.map((m) => shardOf(m)))).size).toBeLessThan(markets.length);
    await runIndexerJob('full', es, mongo.collections, config);
    expect(await readRoutingKeys(es, config.homesAlias)).toEqual(keys);
  });
});
