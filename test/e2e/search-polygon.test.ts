/**
 * The `polygon` argument (docs/contract.md, "Location" rule 6) over real HTTP (GET /api/public/search and
 * /map-search, `polygon=lat,lon;…`) and a real MCP client (the two searches and search_properties_tool)
 * on a generated world: exactly the matching homes inside the polygon (against the naive model kept
 * to the polygon by @turf/boolean-point-in-polygon), alone or with a market, a viewport or a radius,
 * counts and pages following; the same answer on both transports; and the error object for each
 * refused polygon and each malformed GET form, never a 5xx.
 */
import { mulberry32 } from '../../stack/demo/prng';
import { addDays } from '../../services/kernel/engine/dates';
import { startFixture, type Fixture } from '../support/fixture';
import { expectedResults, loadWorld, type ModelArgs, type World } from '../support/search-model';
import { boundingViewport, polygonText, starPolygon, where } from '../support/polygons';
import type { PolygonVertex } from '../../services/search/shared/polygon';

let fx: Fixture;
let world: World;

beforeAll(async () => {
  fx = await startFixture({ homes: 400, seed: 5 });
  world = await loadWorld(fx.mongo.collections, fx.today);
}, 300_000);

afterAll(async () => {
  await fx?.close();
});

type Args = ModelArgs & { polygon?: PolygonVertex[] };
interface Home {
  slug: string;
  latitude: number;
  longitude: number;
}
interface Answer {
  market: { slug: string } | null;
  total_count: number;
  total_pages?: number;
  count: number;
  homes: Home[];
}

const GET_NAMES: Record<string, string> = { start_date: 'check_in', end_date: 'check_out', min_bedrooms: 'bedrooms' };
const query = (args: Args): string =>
  new URLSearchParams(
    Object.entries(args).map(([k, v]): [string, string] => [GET_NAMES[k] ?? k, k === 'polygon' ? polygonText(v as PolygonVertex[]) : String(v)]),
  ).toString();

async function tool(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> {
  const res = await (await fx.mcp()).callTool({ name, arguments: args });
  const body = res.isError ? JSON.parse((res.content as Array<{ text: string }>)[0].text) : res.structuredContent;
  return { isError: res.isError === true, body };
}

/** A GET route and its tool, which must answer the same JSON. */
async function both(route: 'search' | 'map-search', args: Args): Promise<Answer> {
  const res = await fx.get(`/api/public/${route}?${query(args)}`);
  expect({ args, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ args, status: 200, body: 'ok' });
  const viaTool = await tool(route === 'search' ? 'search_apartments_tool' : 'search_apartments_on_map', args);
  expect(viaTool).toEqual({ isError: false, body: res.body });
  return res.body as Answer;
}

/** Every page of the list search. */
async function everyPage(args: Args): Promise<{ first: Answer; homes: Home[] }> {
  const first = await both('search', { ...args, per_page: 40 });
  const homes = [...first.homes];
  for (let page = 2; page <= (first.total_pages ?? 1); page++) homes.push(...(await both('search', { ...args, per_page: 40, page })).homes);
  return { first, homes };
}

/** The model's matches inside the polygon: those surely inside, and those that may be (on an edge). */
function expected(args: Args): { inside: Set<string>; maybe: Set<string> } {
  const { polygon, ...rest } = args;
  const inside = new Set<string>();
  const maybe = new Set<string>();
  for (const r of expectedResults(world, rest)) {
    const at = where(polygon!, r.m.property);
    if (at !== 'outside') maybe.add(r.slug);
    if (at === 'inside') inside.add(r.slug);
  }
  return { inside, maybe };
}

function holds(label: string, args: Args, total: number, homes: Home[]): void {
  const { inside, maybe } = expected(args);
  const found = new Set(homes.map((h) => h.slug));
  expect({ label, count: homes.length, total }).toEqual({ label, count: found.size, total: found.size });
  expect({ label, outside: homes.filter((h) => !maybe.has(h.slug) || where(args.polygon!, h) === 'outside').map((h) => h.slug) }).toEqual({
    label,
    outside: [],
  });
  expect({ label, missing: [...inside].filter((s) => !found.has(s)) }).toEqual({ label, missing: [] });
}

/** A polygon around a home of the world, with random dates and filters; sometimes a market, a radius. */
function randomArgs(rnd: () => number, i: number): Args {
  const m = world.homes[Math.floor(rnd() * world.homes.length)];
  const center = { latitude: m.property.latitude, longitude: m.property.longitude };
  const polygon = starPolygon(rnd, center, [0.02, 0.08, 0.3][i % 3], [3, 5, 12, 20][Math.floor(rnd() * 4)]);
  const args: Args = { polygon };
  if (i % 4 === 1) args.market = m.market.slug;
  if (i % 4 === 2) Object.assign(args, { near_latitude: center.latitude, near_longitude: center.longitude, near_radius_miles: 2 });
  const start = 10 + Math.floor(rnd() * 100);
  if (rnd() < 0.5) Object.assign(args, { start_date: addDays(fx.today, start), end_date: addDays(fx.today, start + 20 + Math.floor(rnd() * 40)) });
  if (rnd() < 0.3) args.min_bedrooms = 1;
  return args;
}

describe('searching inside a polygon', () => {
  it('search_apartments_tool: exactly the matching homes inside, alone or with a market or a radius; counts and pages follow', async () => {
    const rnd = mulberry32(20261127);
    let found = 0;
    for (let i = 0; i < 12; i++) {
      const args = randomArgs(rnd, i);
      const { first, homes } = await everyPage(args);
      expect(first.market).toEqual(args.market ? { slug: args.market } : null);
      expect(first.total_pages).toBe(Math.ceil(first.total_count / 40));
      holds(`case ${i}: ${query(args)}`, args, first.total_count, homes);
      found += homes.length;
    }
    expect(found).toBeGreaterThan(20);
  }, 300_000);

  it('search_apartments_on_map: the pins inside the polygon, and inside the viewport too when one is given', async () => {
    const rnd = mulberry32(7);
    for (let i = 0; i < 6; i++) {
      const args = randomArgs(rnd, i);
      const map = await both('map-search', args);
      expect(map.total_count).toBeLessThanOrEqual(250);
      holds(`map ${i}`, args, map.total_count, map.homes);
      // The west half of the polygon's box as a viewport: pins in both.
      const box = boundingViewport(args.polygon!);
      const half = { ...box, ne_longitude: (box.sw_longitude + box.ne_longitude) / 2 };
      const inBoth = await both('map-search', { ...args, ...half });
      for (const h of inBoth.homes) expect(h.longitude).toBeLessThanOrEqual(half.ne_longitude + 1e-6);
      expect(inBoth.homes.every((h) => map.homes.some((p) => p.slug === h.slug))).toBe(true);
    }
  }, 300_000);

  it('search_properties_tool: the buildings inside the polygon, their units the apartment search of the same polygon', async () => {
    const rnd = mulberry32(11);
    for (let i = 0; i < 4; i++) {
      const args = randomArgs(rnd, i * 4);
      const cards = await tool('search_properties_tool', { polygon: args.polygon, per_page: 1000 });
      expect(cards.isError).toBe(false);
      expect(cards.body.market).toBeNull();
      for (const c of cards.body.properties) expect({ id: c.id, at: where(args.polygon!, c) }).not.toEqual({ id: c.id, at: 'outside' });
      const list = await both('search', { polygon: args.polygon, per_page: 40 });
      expect(cards.body.total_homes).toBe(list.total_count);
    }
  }, 300_000);

  it('a polygon covering a whole market, with that market, finds what the market alone finds', async () => {
    const market = world.markets[0].slug;
    const around: PolygonVertex[] = [
      { latitude: 15, longitude: -170 },
      { latitude: 15, longitude: -60 },
      { latitude: 72, longitude: -60 },
      { latitude: 72, longitude: -170 },
    ];
    const withPolygon = await both('search', { market, polygon: around });
    const alone = await both('search', { market });
    expect(withPolygon.total_count).toBe(alone.total_count);
    expect(withPolygon.homes.map((h) => h.slug)).toEqual(alone.homes.map((h) => h.slug));
  });
});

const TRIANGLE: PolygonVertex[] = [
  { latitude: 40.7, longitude: -74.02 },
  { latitude: 40.7, longitude: -73.97 },
  { latitude: 40.76, longitude: -73.99 },
];
const circle = (n: number) =>
  Array.from({ length: n }, (_, k) => ({ latitude: 40 + Math.sin((2 * Math.PI * k) / n), longitude: -74 + Math.cos((2 * Math.PI * k) / n) }));

describe('refused polygons: the error object on GET (400) and on the tool server, never a 5xx', () => {
  const cases: Array<[string, PolygonVertex[], RegExp]> = [
    ['two vertices', TRIANGLE.slice(0, 2), /polygon/],
    ['101 vertices', circle(101), /polygon/],
    ['a latitude above 90', [...TRIANGLE.slice(0, 2), { latitude: 90.5, longitude: -73.99 }], /polygon.2.latitude/],
    ['a longitude past 180', [...TRIANGLE.slice(0, 2), { latitude: 40.76, longitude: -181 }], /polygon.2.longitude/],
    ['the first vertex repeated at the end', [...TRIANGLE, TRIANGLE[0]], /same point/],
    [
      'a bow tie',
      [
        { latitude: 40, longitude: -74 },
        { latitude: 40, longitude: -73 },
        { latitude: 41, longitude: -74 },
        { latitude: 41, longitude: -73 },
      ],
      /intersects itself/,
    ],
    [
      'an edge across the antimeridian',
      [
        { latitude: 50, longitude: 170 },
        { latitude: 50, longitude: -170 },
        { latitude: 60, longitude: -175 },
      ],
      /antimeridian/,
    ],
    [
      'no area',
      [
        { latitude: 40, longitude: -74 },
        { latitude: 40.5, longitude: -73.5 },
        { latitude: 41, longitude: -73 },
      ],
      /no area/,
    ],
  ];

  it.each(cases)('%s', async (_name, polygon, message) => {
    for (const route of ['search', 'map-search']) {
      const res = await fx.get(`/api/public/${route}?${query({ polygon })}`);
      expect({ route, status: res.status }).toEqual({ route, status: 400 });
      expect(res.body.error).toEqual({ code: 'invalid_parameters', message: expect.stringMatching(message) });
    }
    for (const name of ['search_apartments_tool', 'search_apartments_on_map', 'search_properties_tool']) {
      expect({ name, ...(await tool(name, { polygon })) }).toEqual({
        name,
        isError: true,
        body: { error: { code: 'invalid_parameters', message: expect.stringMatching(message) } },
      });
    }
  });

  it.each([
    ['pairs without a semicolon', '40.7,-74.02,40.7,-73.97,40.76,-73.99'],
    ['a vertex without its longitude', '40.7,-74.02;40.7;40.76,-73.99'],
    ['a trailing semicolon', '40.7,-74.02;40.7,-73.97;40.76,-73.99;'],
    ['words', 'lower;manhattan;please'],
    ['JSON', JSON.stringify(TRIANGLE)],
    ['nothing', ''],
  ])('GET refuses a malformed polygon (%s) with a 400 naming the form', async (_name, text) => {
    for (const route of ['search', 'map-search']) {
      const res = await fx.get(`/api/public/${route}?polygon=${encodeURIComponent(text)}`);
      expect({ route, status: res.status, code: res.body.error?.code }).toEqual({ route, status: 400, code: 'invalid_parameters' });
      expect(res.body.error.message).toMatch(/latitude,longitude/);
    }
  });

  it('GET refuses a polygon given twice; the tool server, a polygon as text; both, a search without a place or a polygon', async () => {
    const twice = await fx.get(`/api/public/search?polygon=${polygonText(TRIANGLE)}&polygon=${polygonText(TRIANGLE)}`);
    expect([twice.status, twice.body.error.code]).toEqual([400, 'invalid_parameters']);
    const asText = await tool('search_apartments_tool', { polygon: polygonText(TRIANGLE) });
    expect([asText.isError, asText.body.error.code]).toEqual([true, 'invalid_parameters']);
    const none = await fx.get('/api/public/search');
    expect([none.status, none.body.error.code]).toEqual([400, 'invalid_parameters']);
    expect(none.body.error.message).toMatch(/polygon/);
    expect((await tool('search_properties_tool', {})).body.error.message).toMatch(/polygon/);
  });
});

describe('openapi.json', () => {
  it('documents the GET form of the polygon on both search routes, and a market or a polygon as required', async () => {
    const { body } = await fx.get('/api/public/openapi.json');
    for (const path of ['/api/public/search', '/api/public/map-search']) {
      const op = body.paths[path].get;
      const param = op.parameters.find((p: { name: string }) => p.name === 'polygon');
      expect(param).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
      expect(new RegExp(param.schema.pattern).test(polygonText(TRIANGLE))).toBe(true);
      expect(param.description).toMatch(/latitude,longitude/);
      expect(op['x-required-one-of']).toEqual(expect.arrayContaining([['market'], ['polygon']]));
    }
  });
});
