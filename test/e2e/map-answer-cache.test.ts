/**
 * The map's answers are kept per index generation (kernel/store/generation-answers.ts): over both
 * transports they are the uncached path's, byte for byte, asked once and asked again, and a change
 * is never served stale once an indexer run has made it searchable. A copy with READ_CACHE=false on
 * the same world is the uncached path.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { request } from 'undici';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixture, testConfig, type Fixture } from '../support/fixture';
import { mcpClientAt } from '../support/mcp-at';
import { startService, type RunningService } from '../../services/main';
import { addDays } from '../../services/kernel/engine/dates';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { incrementalRun } from '../../indexer/incremental';
import { EMPTY_STATE, mapSearchParams, type Area } from '../../services/web/app/state';
import { alignViewport } from '../../services/kernel/map-tiles';

let fx: Fixture;
let uncached: RunningService;
let places: Array<{ lat: number; lon: number; market: string }>;
const clients: McpClient[] = [];

beforeAll(async () => {
  // Enough homes that a national viewport passes the map's 250 pins, so answers carry clusters.
  fx = await startFixture({ homes: 400, seed: 11 });
  uncached = await startService(testConfig({ MONGO_DB: fx.config.mongoDb, HOMES_ALIAS: fx.config.homesAlias, READ_CACHE: 'false' }));
  const properties = await fx.mongo.collections.properties.find({}).toArray();
  places = properties.map((p) => ({ lat: p.latitude, lon: p.longitude, market: p.market_slug }));
}, 300_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await uncached?.close();
  await fx?.close();
});

const mcpOf = (url: string): Promise<McpClient> => mcpClientAt(url, clients);

const GET_NAMES: Record<string, string> = { start_date: 'check_in', end_date: 'check_out', latest_start_date: 'latest_check_in', min_bedrooms: 'bedrooms' };
const pathOf = (args: Record<string, unknown>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) q.set(GET_NAMES[k] ?? k, String(v));
  return `/api/public/map-search?${q.toString()}`;
};

/** One map question as both copies answer it: the GET's status, bytes and ETag, and the tool call's whole result. */
async function answers(
  url: string,
  client: McpClient,
  args: Record<string, unknown>,
): Promise<{ status: number; body: string; etag: string | null; tool: unknown }> {
  const res = await fetch(url + pathOf(args));
  return {
    status: res.status,
    body: await res.text(),
    etag: res.headers.get('etag'),
    tool: await client.callTool({ name: 'search_apartments_on_map', arguments: args }),
  };
}

const NATIONAL = { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 };

/** A viewport around a building (city to street zoom) or over the country, with or without a stay, filters and a sort. */
const aQuestion = (today: () => string) =>
  fc
    .record({
      place: fc.integer({ min: 0, max: 10_000 }),
      zoom: fc.integer({ min: 3, max: 15 }),
      national: fc.boolean(),
      stay: fc.constantFrom('none', 'fixed', 'window', 'flex'),
      from: fc.integer({ min: 0, max: 200 }),
      nights: fc.integer({ min: 1, max: 120 }),
      bedrooms: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      maxPrice: fc.option(fc.integer({ min: 1_500, max: 9_000 }), { nil: undefined }),
      sort: fc.option(fc.constantFrom('price_asc', 'price_desc', 'newest', 'availability'), { nil: undefined }),
    })
    .map(({ place, zoom, national, stay, from, nights, bedrooms, maxPrice, sort }) => {
      const p = places[place % places.length];
      const half = 180 / 2 ** zoom;
      const args: Record<string, unknown> = national
        ? { ...NATIONAL }
        : { sw_latitude: p.lat - half / 2, sw_longitude: p.lon - half, ne_latitude: p.lat + half / 2, ne_longitude: p.lon + half, zoom };
      const start = addDays(today(), from);
      if (stay === 'fixed') Object.assign(args, { start_date: start, end_date: addDays(start, nights) });
      if (stay === 'window') Object.assign(args, { start_date: start, latest_start_date: addDays(start, 20), nights });
      if (stay === 'flex') Object.assign(args, { start_date: start, end_date: 'indefinite' });
      if (bedrooms !== undefined) args.min_bedrooms = bedrooms;
      if (maxPrice !== undefined) args.max_price = maxPrice;
      if (sort !== undefined) args.sort_by = sort;
      return args;
    });

describe('the map search with answers kept per index generation', () => {
  it('answers exactly what the uncached path answers, over GET and the tool server, asked once and asked again', async () => {
    const [kept, fresh] = [await mcpOf(fx.url), await mcpOf(uncached.url)];
    await fc.assert(
      fc.asyncProperty(
        aQuestion(() => fx.today),
        async (args) => {
          const expected = await answers(uncached.url, fresh, args);
          // The first ask may keep the answer, the second is served from it.
          expect(await answers(fx.url, kept, args)).toEqual(expected);
          expect(await answers(fx.url, kept, args)).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);

  it('answers questions asked together as one computation would, each request its own copy of the same answer', async () => {
    const args = { ...NATIONAL, start_date: addDays(fx.today, 30), end_date: addDays(fx.today, 60) };
    const expected = await (await fetch(uncached.url + pathOf(args))).text();
    const bodies = await Promise.all(Array.from({ length: 8 }, async () => (await fetch(fx.url + pathOf(args))).text()));
    for (const body of bodies) expect(body).toBe(expected);
  });

  it('never serves a home older than search once a run has made the change searchable', async () => {
    const { homes, inventoryChanges } = fx.mongo.collections;
    const client = await mcpOf(fx.url);
    const opts = { alias: fx.config.homesAlias, indexPrefix: fx.config.homesIndexPrefix, retireAfterMs: 0 };
    const home = (await homes.findOne({ published: true, deleted_at: null }))!;
    const property = (await fx.mongo.collections.properties.findOne({ _id: home.property_id }))!;
    const around = {
      sw_latitude: property.latitude - 0.01,
      sw_longitude: property.longitude - 0.01,
      ne_latitude: property.latitude + 0.01,
      ne_longitude: property.longitude + 0.01,
      zoom: 14,
    };
    const slugs = async (): Promise<string[]> => {
      const viaGet = (await fx.get(pathOf(around))).body as { homes: Array<{ slug: string }> };
      const viaTool = (await client.callTool({ name: 'search_apartments_on_map', arguments: around })).structuredContent as typeof viaGet;
      expect(viaTool).toEqual(viaGet);
      return viaGet.homes.map((h) => h.slug);
    };
    const run = () => incrementalRun(fx.es, fx.mongo.collections, opts);
    expect(await slugs()).toContain(home.slug);
    expect(await slugs()).toContain(home.slug); // kept now

    await homes.updateOne({ _id: home._id }, { $set: { published: false, updated_at: new Date() } });
    await recordChanges(inventoryChanges, 'test', { homes: [home._id] });
    await run();
    expect(await slugs()).not.toContain(home.slug);

    await homes.updateOne({ _id: home._id }, { $set: { published: true, updated_at: new Date() } });
    await recordChanges(inventoryChanges, 'test', { homes: [home._id] });
    await run();
    expect(await slugs()).toContain(home.slug);
    expect((await fx.get(pathOf(around))).body).toEqual(await (await fetch(uncached.url + pathOf(around))).json());
  });

  it('sends a kept answer in the encoding the compressor would choose, decoding to the uncached bytes, whatever the client accepts', async () => {
    const args = { ...NATIONAL, start_date: addDays(fx.today, 12), end_date: addDays(fx.today, 40) };
    const accepts = ['br', 'gzip', 'gzip, br', 'br;q=0.5, gzip', 'gzip;q=0.9, br;q=0.1', '*', '', 'identity', 'deflate', 'zstd, gzip', 'br;q=0, gzip'];
    const asked = async (url: string, accept: string) => {
      // undici's request decodes nothing: the encoding and the body are the ones sent.
      const res = await request(url + pathOf(args), { headers: accept ? { 'accept-encoding': accept } : {} });
      const body = Buffer.from(await res.body.arrayBuffer());
      const encoding = res.headers['content-encoding'];
      const decoded = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
      return { status: res.statusCode, encoding, etag: res.headers.etag, vary: res.headers.vary, body: decoded.toString() };
    };
    for (const accept of accepts) {
      const expected = await asked(uncached.url, accept);
      // Asked twice: the first may keep the answer and its compressed bytes, the second is served them.
      expect(await asked(fx.url, accept)).toEqual(expected);
      expect(await asked(fx.url, accept)).toEqual(expected);
    }
  });

  it("answers a small pan inside the page's viewport grid with the answer kept for the view before it", async () => {
    const property = (await fx.mongo.collections.properties.findOne({}))!;
    // A city view at zoom 12 around a building, and the same view panned by about 20 m east and north.
    const shown: Area = {
      swLatitude: property.latitude - 0.1,
      swLongitude: property.longitude - 0.17,
      neLatitude: property.latitude + 0.1,
      neLongitude: property.longitude + 0.17,
      zoom: 12,
    };
    // The pan stays inside the grid tiles of every edge (tiles of zoom 13: 0.044° wide), so it asks the same viewport.
    const grid = alignViewport({ south: shown.swLatitude, west: shown.swLongitude, north: shown.neLatitude, east: shown.neLongitude }, shown.zoom);
    const room = Math.min(shown.swLatitude - grid.south, shown.swLongitude - grid.west, grid.north - shown.neLatitude, grid.east - shown.neLongitude);
    const step = Math.min(0.0002, room / 2);
    expect(step).toBeGreaterThan(0);
    const panned: Area = {
      ...shown,
      swLatitude: shown.swLatitude + step,
      neLatitude: shown.neLatitude + step,
      swLongitude: shown.swLongitude + step,
      neLongitude: shown.neLongitude + step,
    };
    const path = (area: Area) => `/api/public/map-search?${new URLSearchParams(mapSearchParams({ ...EMPTY_STATE, area })).toString()}`;
    expect(path(panned)).toBe(path(shown));
    const first = await fetch(fx.url + path(shown));
    const kept = fx.svc.deps.mapAnswers.size;
    const again = await fetch(fx.url + path(panned));
    expect(fx.svc.deps.mapAnswers.size).toBe(kept);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await again.text()).toBe(await first.text());
  });
});
