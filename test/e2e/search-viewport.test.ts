/**
 * search_apartments_on_map with a viewport (docs/contract.md, its rule 2), over real HTTP (GET /api/public/map-search)
 * and a real MCP client on a generated world: every pin inside the rectangle, nothing inside it that
 * matches missing (against the naive model over every home), the pins the first 250 of the list
 * order, clusters whose counts add up to the total and whose cheapest price is the engine's, the
 * same answer on both transports, and the contract's error object for each bad viewport.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { mulberry32 } from '../../stack/demo/prng';
import { searchOnMapTool } from '../../services/tools/search-on-map';
import { addDays } from '../../services/kernel/engine/dates';
import { startFixture, type Fixture } from '../support/fixture';
import type { Cluster } from '../../services/search/map/clusters';
import { expectedResults, insideViewport, loadWorld, orderedPair, type ModelArgs, type ModelResult, type World } from '../support/search-model';

let fx: Fixture;
let world: World;

beforeAll(async () => {
  // Enough homes that a national viewport passes the map's 250 pins.
  fx = await startFixture({ homes: 1_200, seed: 5 });
  world = await loadWorld(fx.mongo.collections, fx.today);
}, 300_000);

afterAll(async () => {
  await fx?.close();
});

interface Pin {
  slug: string;
  latitude: number;
  longitude: number;
  display_price_with_discount: number;
}
interface MapAnswer {
  market: { slug: string } | null;
  total_count: number;
  count: number;
  homes: Pin[];
  viewport?: Record<string, number>;
  clusters?: Cluster[];
}

/** Degrees a building may lie outside an edge and still count as on it (Elasticsearch stores points to ~1e-7°). */
const EDGE = 1e-6;
const GET_NAMES: Record<string, string> = { start_date: 'check_in', end_date: 'check_out', min_bedrooms: 'bedrooms' };

function query(args: ModelArgs): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) q.set(GET_NAMES[k] ?? k, String(v));
  return q.toString();
}

const validAnswer = addFormats(new Ajv({ allErrors: true, strict: false })).compile(searchOnMapTool.outputSchema as object);

/** The same search on both transports; they must answer the same JSON, and it fits the tool's output schema. */
async function both(args: ModelArgs): Promise<MapAnswer> {
  const res = await fx.get(`/api/public/map-search?${query(args)}`);
  expect({ args, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ args, status: 200, body: 'ok' });
  const client = await fx.mcp();
  const tool = await client.callTool({ name: 'search_apartments_on_map', arguments: args });
  expect(tool.isError).toBeFalsy();
  expect(tool.structuredContent).toEqual(res.body);
  expect({ args, valid: validAnswer(res.body), errors: validAnswer.errors ?? null }).toEqual({ args, valid: true, errors: null });
  return res.body as MapAnswer;
}

const NATIONAL = { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 };

/** A rectangle around a random home, some miles to some degrees wide, at a zoom that fits it roughly. */
function randomViewport(rnd: () => number): ModelArgs {
  const h = world.homes[Math.floor(rnd() * world.homes.length)];
  const half = [0.02, 0.05, 0.15, 0.4, 2, 8][Math.floor(rnd() * 6)];
  const lat = h.property.latitude + (rnd() - 0.5) * half;
  const lon = h.property.longitude + (rnd() - 0.5) * half;
  const zoom = Math.max(0, Math.min(20, Math.round(Math.log2(360 / (half * 2))) + 1 + Math.floor(rnd() * 3) - 1));
  return { sw_latitude: lat - half * 0.7, sw_longitude: lon - half, ne_latitude: lat + half * 0.7, ne_longitude: lon + half, zoom };
}

function randomFilters(rnd: () => number, viewport: ModelArgs): ModelArgs {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const args: ModelArgs = { ...viewport };
  const start = addDays(world.today, int(0, 200));
  const kind = pick(['undated', 'start_only', 'short', 'long', 'flex_any']);
  if (kind === 'start_only') args.start_date = start;
  if (kind === 'short' || kind === 'long') Object.assign(args, { start_date: start, end_date: addDays(start, kind === 'short' ? int(2, 29) : int(30, 150)) });
  if (kind === 'flex_any') Object.assign(args, { start_date: start, end_date: 'indefinite' });
  if (rnd() < 0.3) args.min_bedrooms = int(0, 2);
  if (rnd() < 0.2) args[pick(['pets', 'parking', 'gym', 'air_conditioned'])] = true;
  if (rnd() < 0.4) {
    const prices = expectedResults(world, args, { ignorePrice: true })
      .map((r) => r.price.display_price_with_discount)
      .sort((a, b) => a - b);
    if (prices.length > 0) args.max_price = prices[Math.floor(prices.length * (0.3 + 0.6 * rnd()))];
  }
  if (rnd() < 0.7) args.sort_by = pick(['price_asc', 'price_desc', 'availability', 'newest', 'rating_desc']);
  return args;
}

/** The checks every viewport answer passes against the model. */
function holdsToModel(args: ModelArgs, map: MapAnswer, label: string): void {
  const inside = expectedResults(world, args, { viewportSlack: -EDGE });
  const near = expectedResults(world, args, { viewportSlack: EDGE });
  const bySlug = new Map<string, ModelResult>(near.map((r) => [r.slug, r]));
  // The total is what matches inside the rectangle (buildings within a micro-degree of an edge may fall either way).
  expect({ label, ok: map.total_count >= inside.length && map.total_count <= near.length }).toEqual({ label, ok: true });
  expect(map.count).toBe(Math.min(250, map.total_count));
  for (const pin of map.homes) {
    // Every pin lies inside the rectangle and matches, at the engine's price.
    expect({ label, slug: pin.slug, inside: insideViewport(args, { latitude: pin.latitude, longitude: pin.longitude }, EDGE) }).toEqual({
      label,
      slug: pin.slug,
      inside: true,
    });
    expect({ label, slug: pin.slug, price: pin.display_price_with_discount }).toEqual({
      label,
      slug: pin.slug,
      price: bySlug.get(pin.slug)?.price.display_price_with_discount,
    });
  }
  const sort = (args.sort_by as string | undefined) ?? 'price_asc';
  const pins = map.homes.map((p) => bySlug.get(p.slug)!);
  for (let k = 1; k < pins.length; k++)
    expect({ label, at: k, ordered: orderedPair(sort, pins[k - 1], pins[k], world.today) }).toEqual({ label, at: k, ordered: true });
  const shown = new Set(map.homes.map((p) => p.slug));
  if (map.total_count <= 250) {
    // Nothing inside that matches is missing.
    expect({ label, missing: inside.filter((r) => !shown.has(r.slug)).map((r) => r.slug) }).toEqual({ label, missing: [] });
    expect(map.clusters).toBeUndefined();
    return;
  }
  // More than 250: the pins are the first 250 of the list order; every match left out comes after the last pin.
  const last = pins[pins.length - 1];
  const early = inside.filter((r) => !shown.has(r.slug) && !orderedPair(sort, last, r, world.today)).map((r) => r.slug);
  expect({ label, early }).toEqual({ label, early: [] });
  const clusters = map.clusters ?? [];
  expect({ label, sum: clusters.reduce((n, c) => n + c.count, 0) }).toEqual({ label, sum: map.total_count });
  for (const c of clusters) clusterHolds(args, c, near, label);
}

/** A cluster's homes lie in its bounds, inside the viewport; its cheapest price is a model home's there, and none there is cheaper. */
function clusterHolds(args: ModelArgs, c: Cluster, matches: ModelResult[], label: string): void {
  const box = { sw_latitude: c.bounds.south, sw_longitude: c.bounds.west, ne_latitude: c.bounds.north, ne_longitude: c.bounds.east };
  expect({ label, tile: c.tile, inViewport: insideViewport(args, { latitude: c.latitude, longitude: c.longitude }, EDGE) }).toEqual({
    label,
    tile: c.tile,
    inViewport: true,
  });
  const within = matches.filter((r) => insideViewport(box, { latitude: r.m.property.latitude, longitude: r.m.property.longitude }, EDGE));
  // The bounds of a tile's homes lie inside the tile, so the matches within them are that tile's (at least its count).
  expect({ label, tile: c.tile, enough: within.length >= c.count }).toEqual({ label, tile: c.tile, enough: true });
  const least = Math.min(...within.map((r) => r.price.display_price_with_discount));
  if (c.cheapest_display_price !== undefined) {
    expect({ label, tile: c.tile, cheapest: c.cheapest_display_price }).toEqual({ label, tile: c.tile, cheapest: least });
  } else {
    expect({ label, tile: c.tile, bound: typeof c.cheapest_display_price_at_least === 'number' && c.cheapest_display_price_at_least <= least }).toEqual({
      label,
      tile: c.tile,
      bound: true,
    });
  }
}

describe('search_apartments_on_map with a viewport', () => {
  it('answers random viewports, with and without a market, as the model does, the same on GET and the tool server', async () => {
    const rnd = mulberry32(20261125);
    let clustered = 0;
    for (let i = 0; i < 30; i++) {
      const args = randomFilters(rnd, randomViewport(rnd));
      if (i % 3 === 0) {
        // With a place too: the market of a home inside the rectangle, when there is one.
        const h = expectedResults(world, args, { ignorePrice: true })[0];
        if (h) args.market = h.m.market.slug;
      }
      const map = await both(args);
      holdsToModel(args, map, `case ${i}: ${JSON.stringify(args)}`);
      expect(map.market).toEqual(args.market ? { slug: args.market } : null);
      if (map.clusters) clustered += 1;
    }
    expect(clustered).toBeGreaterThan(0);
  }, 600_000);

  it('clusters a national viewport across markets: counts add up to the total, exact cheapest prices, pins first in the list order', async () => {
    for (const extra of [{}, { sort_by: 'newest' }, { start_date: addDays(fx.today, 20) }, { start_date: addDays(fx.today, 40), end_date: 'indefinite' }]) {
      const args: ModelArgs = { ...NATIONAL, ...extra };
      const map = await both(args);
      // Few homes of this world take Flex stays: that search is held to the model without clusters.
      if (args.end_date === 'indefinite') {
        holdsToModel(args, map, JSON.stringify(args));
        continue;
      }
      expect(map.total_count).toBeGreaterThan(250);
      expect(new Set(expectedResults(world, args).map((r) => r.m.market.slug)).size).toBeGreaterThan(1);
      expect(map.viewport).toEqual({ ...NATIONAL, cluster_precision: 6 });
      holdsToModel(args, map, JSON.stringify(args));
      // Undated, move-in and Flex prices are in the index: every cluster's cheapest is exact.
      for (const c of map.clusters!) expect(c.cheapest_display_price).toEqual(expect.any(Number));
    }
  }, 300_000);

  it('clusters a dated fixed stay by price: exact cheapest prices where the heads settle them, a named bound elsewhere', async () => {
    // Stays that more than 250 homes of this world (seed 5) can take.
    for (const [from, nights, sort] of [
      [90, 30, 'price_asc'],
      [60, 10, 'price_desc'],
      [120, 10, 'newest'],
    ] as const) {
      const start = addDays(fx.today, from);
      const args: ModelArgs = { ...NATIONAL, start_date: start, end_date: addDays(start, nights), sort_by: sort };
      const map = await both(args);
      expect(map.total_count).toBeGreaterThan(250);
      holdsToModel(args, map, JSON.stringify(args));
      for (const c of map.clusters!) expect((c.cheapest_display_price === undefined) !== (c.cheapest_display_price_at_least === undefined)).toBe(true);
      expect(map.clusters!.some((c) => c.cheapest_display_price !== undefined)).toBe(true);
    }
  }, 300_000);

  it('without a viewport answers as before: no viewport echo, no clusters, the market required', async () => {
    const market = world.markets[0].slug;
    const map = await both({ market });
    expect(map.viewport).toBeUndefined();
    expect(map.clusters).toBeUndefined();
    const none = await fx.get('/api/public/map-search');
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('invalid_parameters');
    // GET names the parameters that place a search: a market, a city, the viewport's corners and zoom, or a polygon.
    expect(none.body.error.message).toMatch(/market, display_city, sw_latitude \+ sw_longitude \+ ne_latitude \+ ne_longitude \+ zoom or polygon/);
  });
});

describe('search_apartments_on_map: bad viewports get the error object on both transports', () => {
  const cases: Array<[string, ModelArgs, RegExp]> = [
    ['corners reversed', { ...NATIONAL, sw_latitude: 50, ne_latitude: 24 }, /reversed/],
    ['a latitude above 90', { ...NATIONAL, ne_latitude: 91 }, /ne_latitude/],
    ['a latitude below -90', { ...NATIONAL, sw_latitude: -90.5 }, /sw_latitude/],
    ['a longitude past 180', { ...NATIONAL, ne_longitude: 181 }, /ne_longitude/],
    ['a zoom above 20', { ...NATIONAL, zoom: 21 }, /zoom/],
    ['a negative zoom', { ...NATIONAL, zoom: -1 }, /zoom/],
    ['a fractional zoom', { ...NATIONAL, zoom: 4.5 }, /zoom/],
    ['a viewport without a zoom', { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66 }, /zoom/],
    ['a zoom without a viewport', { market: 'chicago', zoom: 8 }, /zoom needs a viewport/],
    ['a corner missing', { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, zoom: 4 }, /ne_longitude/],
    ['a viewport across the antimeridian', { sw_latitude: 50, sw_longitude: 170, ne_latitude: 60, ne_longitude: -170, zoom: 4 }, /antimeridian/],
  ];

  it.each(cases)('%s', async (_name, args, message) => {
    const res = await fx.get(`/api/public/map-search?${query(args)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'invalid_parameters', message: expect.stringMatching(message) });
    const client = await fx.mcp();
    const tool = await client.callTool({ name: 'search_apartments_on_map', arguments: args });
    expect(tool.isError).toBe(true);
    const error = JSON.parse((tool.content as Array<{ text: string }>)[0].text).error;
    expect(error).toEqual({ code: 'invalid_parameters', message: expect.stringMatching(message) });
  });
});

describe('GET /api/public/map-search in openapi.json', () => {
  it('is an operation of the tool with the viewport parameters', async () => {
    const res = await fx.get('/api/public/openapi.json');
    const op = res.body.paths['/api/public/map-search'].get;
    expect(op.operationId).toBe('search_apartments_on_map');
    const names = op.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['market', 'check_in', 'check_out', 'sw_latitude', 'sw_longitude', 'ne_latitude', 'ne_longitude', 'zoom']));
    expect(op.responses[200].content['application/json'].schema.properties.clusters.type).toBe('array');
  });
});
