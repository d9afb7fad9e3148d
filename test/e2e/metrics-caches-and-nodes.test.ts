/**
 * What the operators' board reads beside the request histograms (docs/operations.md, "Metrics"), through
 * real HTTP on the real stack: the lookups of each cache by outcome, and the Elasticsearch nodes as the
 * node watch sees them (a second copy of the service is given a node where nothing listens).
 */
import { startFixture, testConfig, type Fixture } from '../support/fixture';
import { freePort } from '../support/free-port';
import { startService, type RunningService } from '../../services/main';

let fx: Fixture;
let twoNodes: RunningService | undefined;

beforeAll(async () => {
  fx = await startFixture({ homes: 20 });
});

afterAll(async () => {
  await twoNodes?.close();
  await fx?.close();
});

async function scrape(adminUrl: string): Promise<string> {
  return (await fetch(`${adminUrl}/metrics`)).text();
}

/** The value of one series (`name{labels}` as written), 0 when the copy has not written it. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('catalog_cache_lookups_total', () => {
  it('counts a repeated apartment read as a hit of home_buildings and a repeated suggestion as a hit of place_answers', async () => {
    const slug = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.slug;
    const market = (await fx.mongo.collections.markets.findOne({}))!;
    const q = market.name.slice(0, 3);
    const before = await scrape(fx.adminUrl);
    for (let i = 0; i < 2; i++) {
      expect((await fx.get(`/api/public/homes/${slug}`)).status).toBe(200);
      expect((await fx.get(`/api/public/suggest?${new URLSearchParams({ q })}`)).status).toBe(200);
    }
    const after = await scrape(fx.adminUrl);
    const grew = (series: string): number => value(after, series) - value(before, series);
    // The first of each computes or reads (a miss), the second is answered from what was kept.
    expect(grew('catalog_cache_lookups_total{cache="home_buildings",outcome="miss"}')).toBe(1);
    expect(grew('catalog_cache_lookups_total{cache="home_buildings",outcome="hit"}')).toBe(1);
    expect(grew('catalog_cache_lookups_total{cache="place_answers",outcome="miss"}')).toBe(1);
    expect(grew('catalog_cache_lookups_total{cache="place_answers",outcome="hit"}')).toBe(1);
    // Every cache is reported from the start, before its first lookup.
    for (const cache of ['map_answers', 'place_answers', 'building_records', 'home_buildings']) {
      expect(after).toMatch(new RegExp(`^catalog_cache_lookups_total\\{cache="${cache}",outcome="hit"\\} \\d+$`, 'm'));
    }
  });
});

describe('catalog_elasticsearch_node_answering', () => {
  it('has no series while ES_URL names one node: nothing is watched', async () => {
    const text = await scrape(fx.adminUrl);
    expect(text).toContain('# TYPE catalog_elasticsearch_node_answering gauge');
    expect(text).not.toMatch(/^catalog_elasticsearch_node_answering\{/m);
  });

  it('reports 1 for a node that answers the watch and 0 for one that does not, by origin and without credentials', async () => {
    const live = new URL(fx.config.esUrl.split(',')[0]!).origin;
    const dead = `http://127.0.0.1:${await freePort()}`;
    const withCredentials = dead.replace('http://', 'http://watcher:secret@');
    twoNodes = await startService(
      testConfig({ MONGO_DB: fx.config.mongoDb, HOMES_ALIAS: fx.config.homesAlias, ES_URL: `${live},${withCredentials}`, RATE_LIMIT_SHARED: 'false' }),
    );
    // The watch probes every 500 ms: the dead node is seen out within a round or two.
    let text = '';
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      text = await scrape(twoNodes.adminUrl);
      if (text.includes(`catalog_elasticsearch_node_answering{node="${dead}"} 0`)) break;
    }
    expect(value(text, `catalog_elasticsearch_node_answering{node="${dead}"}`)).toBe(0);
    expect(text).toContain(`catalog_elasticsearch_node_answering{node="${dead}"} 0`);
    expect(value(text, `catalog_elasticsearch_node_answering{node="${live}"}`)).toBe(1);
    expect(text).not.toContain('secret');
  });
});
