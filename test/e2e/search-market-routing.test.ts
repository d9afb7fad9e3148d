/**
 * A search placed by a shape and no market reads the shards of the markets its shape's box meets
 * (docs/decisions.md, "A shape reads the shards of its markets"), over real HTTP on a generated world:
 * the routing it sends, seen in the Elasticsearch client's request events, and the homes it finds,
 * the same as the same search over every shard (forced by marking the index generation `applying`,
 * which leaves the extents unknown), including a building the indexer just moved outside every extent.
 */
import type { DiagnosticResult } from '@elastic/elasticsearch';
import { incrementalRun } from '../../indexer/incremental';
import { startService } from '../../services/main';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { mulberry32 } from '../../stack/demo/prng';
import { startFixture, type Fixture } from '../support/fixture';
import { polygonText, starPolygon } from '../support/polygons';
import type { PolygonVertex } from '../../services/search/shared/polygon';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 600, seed: 5 });
}, 300_000);

afterAll(async () => {
  await fx?.close();
});

const COUNTRY: PolygonVertex[] = [
  { latitude: 24, longitude: -125 },
  { latitude: 24, longitude: -66 },
  { latitude: 50, longitude: -66 },
  { latitude: 50, longitude: -125 },
];
/** Open Pacific, far from every market. */
const OCEAN: PolygonVertex[] = [
  { latitude: 0, longitude: -150 },
  { latitude: 0, longitude: -149 },
  { latitude: 1, longitude: -149.5 },
];

/** The routing of every homes search sent while `run` runs (undefined: every shard); the extents' own aggregation left out. */
async function routingsSentDuring(run: () => Promise<void>): Promise<Array<string | undefined>> {
  const routings: Array<string | undefined> = [];
  const seen = (_err: unknown, result: DiagnosticResult | null) => {
    const params = result?.meta.request.params;
    if (!params) return;
    const body = String(params.body ?? '');
    if (body.includes('"geo_bounds"')) return;
    const qs = new URLSearchParams(typeof params.querystring === 'string' ? params.querystring : '');
    if (/\/_search/.test(params.path)) routings.push(qs.get('routing') ?? undefined);
    if (/\/_msearch/.test(params.path)) {
      const lines = body.split('\n').filter((l) => l.trim() !== '');
      for (let i = 0; i < lines.length; i += 2) routings.push((JSON.parse(lines[i]) as { routing?: string }).routing);
    }
  };
  fx.svc.deps.es.diagnostic.on('request', seen);
  try {
    await run();
  } finally {
    fx.svc.deps.es.diagnostic.off('request', seen);
  }
  return routings;
}

/** Every home the list search finds for `query`, in its order, page by page. */
async function everyHome(query: string): Promise<string[]> {
  const slugs: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fx.get(`/api/public/search?${query}&per_page=50&page=${page}`);
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    const body = res.body as { homes: Array<{ slug: string }>; total_pages: number };
    slugs.push(...body.homes.map((h) => h.slug));
    if (page >= body.total_pages) return slugs;
  }
}

/** What `run` answers with the extents unknown (a run marked writing): the search reads every shard. */
async function overEveryShard<T>(run: () => Promise<T>): Promise<T> {
  const state = fx.mongo.collections.indexerState as unknown as import('mongodb').Collection<{ _id: string; applying?: boolean }>;
  await state.updateOne({ _id: 'generation' }, { $set: { applying: true } }, { upsert: true });
  try {
    let answer: T | undefined;
    const routings = await routingsSentDuring(async () => void (answer = await run()));
    expect(new Set(routings)).toEqual(new Set([undefined]));
    return answer as T;
  } finally {
    await state.updateOne({ _id: 'generation' }, { $set: { applying: false } });
  }
}

const keyOf = (market: string) => fx.svc.deps.routingKeys.keyOf(market);

describe('GET /api/public/search with a polygon and no market', () => {
  it("sends one market's routing for a polygon inside it, and finds the homes a search of every shard finds", async () => {
    const property = (await fx.mongo.collections.properties.findOne({}))!;
    const shape = polygonText(starPolygon(mulberry32(9), { latitude: property.latitude, longitude: property.longitude }, 0.05, 40));
    const query = `polygon=${encodeURIComponent(shape)}`;
    let routed: string[] = [];
    const routings = await routingsSentDuring(async () => void (routed = await everyHome(query)));
    expect(routings.length).toBeGreaterThan(0);
    expect(new Set(routings)).toEqual(new Set([await keyOf(property.market_slug)]));
    expect(routed.length).toBeGreaterThan(0);
    expect(routed).toEqual(await overEveryShard(() => everyHome(query)));
  }, 60_000);

  it("sends the keys of the markets a country-wide polygon meets, and finds every shard's homes", async () => {
    const query = `polygon=${encodeURIComponent(polygonText(COUNTRY))}&sort_by=newest`;
    let routed: string[] = [];
    const routings = await routingsSentDuring(async () => void (routed = await everyHome(query)));
    const markets = await fx.mongo.collections.properties.distinct('market_slug');
    expect(new Set(routings)).toEqual(new Set([[...new Set(await Promise.all(markets.map(keyOf)))].sort().join(',')]));
    expect(routed.length).toBeGreaterThan(100);
    expect(routed).toEqual(await overEveryShard(() => everyHome(query)));
  }, 120_000);

  it('reads one shard for a polygon that meets no market, and answers no homes', async () => {
    let found: string[] = [];
    const routings = await routingsSentDuring(async () => void (found = await everyHome(`polygon=${encodeURIComponent(polygonText(OCEAN))}`)));
    expect(found).toEqual([]);
    expect(routings.length).toBeGreaterThan(0);
    for (const r of routings) expect(r?.split(',')).toHaveLength(1);
  });

  it('reads every shard on a copy with READ_CACHE=false (no extents kept), and finds the same homes', async () => {
    const property = (await fx.mongo.collections.properties.findOne({}))!;
    const query = `polygon=${encodeURIComponent(polygonText(starPolygon(mulberry32(2), { latitude: property.latitude, longitude: property.longitude }, 0.05, 8)))}`;
    const uncached = await startService({ ...fx.config, readCache: false, mapCacheBytes: 0 });
    try {
      const seen: Array<string | undefined> = [];
      const listen = (_err: unknown, result: DiagnosticResult | null) => {
        const params = result?.meta.request.params;
        if (params && /\/_search/.test(params.path)) seen.push(new URLSearchParams(String(params.querystring ?? '')).get('routing') ?? undefined);
      };
      uncached.deps.es.diagnostic.on('request', listen);
      const res = await fetch(`${uncached.url}/api/public/search?${query}&per_page=50`);
      uncached.deps.es.diagnostic.off('request', listen);
      const body = (await res.json()) as { homes: Array<{ slug: string }> };
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([undefined]));
      expect(body.homes.map((h) => h.slug)).toEqual((await everyHome(query)).slice(0, 50));
    } finally {
      await uncached.close();
    }
  }, 60_000);

  it('finds a building an incremental run moved outside every market extent, at its new place, once the run is searchable', async () => {
    const { properties, homes, inventoryChanges } = fx.mongo.collections;
    const property = (await properties.findOne({ _id: (await homes.findOne({ published: true, deleted_at: null }))!.property_id }))!;
    // The Dakotas: no market's homes are near.
    const moved = { latitude: 44.5, longitude: -101.2 };
    const around = polygonText(starPolygon(mulberry32(4), moved, 0.02, 12));
    const query = `polygon=${encodeURIComponent(around)}`;
    expect(await everyHome(query)).toEqual([]);

    await properties.updateOne({ _id: property._id }, { $set: { ...moved, updated_at: new Date() } });
    await recordChanges(inventoryChanges, 'test', { properties: [property._id] });
    await incrementalRun(fx.es, fx.mongo.collections, { alias: fx.config.homesAlias, indexPrefix: fx.config.homesIndexPrefix, retireAfterMs: 0 });

    let found: string[] = [];
    const routings = await routingsSentDuring(async () => void (found = await everyHome(query)));
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(routings)).toEqual(new Set([await keyOf(property.market_slug)]));
    expect(found).toEqual(await overEveryShard(() => everyHome(query)));
    const viewport = `sw_latitude=${moved.latitude - 0.05}&sw_longitude=${moved.longitude - 0.05}&ne_latitude=${moved.latitude + 0.05}&ne_longitude=${moved.longitude + 0.05}&zoom=12`;
    const map = (await fx.get(`/api/public/map-search?${viewport}`)).body as { homes: Array<{ slug: string }> };
    expect(map.homes.map((h) => h.slug).sort()).toEqual([...found].sort());
  }, 60_000);
});
