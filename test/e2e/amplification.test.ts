/**
 * Requests that cost far more than their rate-limit weight (docs/decisions.md, "Facet counts",
 * "Bounded answers", "Cost-settled rate limits"), over real HTTP and the real tool server on a
 * generated world: a drawn polygon with a stay and facets runs its clauses once per request (no
 * `global` bucket over the whole index) and its counts stay the contract's; a country of building
 * cards is bounded in bytes whatever per_page asks; and a costly answer spends more of the client's
 * points than a cheap one at the same weight, on GET and on the tool server.
 */
import type { DiagnosticResult } from '@elastic/elasticsearch';
import { startService, type RunningService } from '../../services/main';
import { PROPERTIES_MAX_BYTES } from '../../services/kernel/limits/pages';
import { mulberry32 } from '../../stack/demo/prng';
import { startFixture, type Fixture } from '../support/fixture';
import { jsonRpcMessage } from '../support/json-rpc-answer';
import { polygonText, starPolygon } from '../support/polygons';
import { COUNTRY } from '../support/polygons';
import { addDays } from '../../services/kernel/engine/dates';

let fx: Fixture;

beforeAll(async () => {
  // 240 buildings: a country of their cards is past the byte bound.
  fx = await startFixture({ homes: 2_400, seed: 11, env: { TRUSTED_PROXIES: 'loopback' } });
}, 300_000);

afterAll(async () => {
  await fx?.close();
});

/** The bodies of every search the service sends to Elasticsearch while `run` runs (the client's request events). */
async function searchesSentDuring(run: () => Promise<void>): Promise<string[]> {
  const es = fx.svc.deps.es;
  const bodies: string[] = [];
  const seen = (_err: unknown, result: DiagnosticResult | null) => {
    const params = result?.meta.request.params;
    if (params && /_(m)?search/.test(params.path)) bodies.push(String(params.body ?? ''));
  };
  es.diagnostic.on('request', seen);
  try {
    await run();
  } finally {
    es.diagnostic.off('request', seen);
  }
  return bodies;
}

interface Facets {
  bedrooms: Array<{ bedrooms: number; count: number }>;
  filters: Array<{ filter: string; count: number }>;
  guest_rating: Array<{ guest_rating: string; count: number }>;
}

async function searchGet(query: string): Promise<{ total_count: number; facets?: Facets }> {
  const res = await fx.get(`/api/public/search?${query}`);
  expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ status: 200, body: undefined });
  return res.body as { total_count: number; facets?: Facets };
}

async function toolCall(url: string, name: string, args: Record<string, unknown>, client = '127.0.0.1') {
  const res = await fetch(`${url}/mcp/public`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': client },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), message: res.status === 200 ? jsonRpcMessage(text) : JSON.parse(text) };
}

describe('GET /api/public/search with a 100-vertex polygon, a stay and facets', () => {
  it('sends no global aggregation, and each facet count is the total_count of the search it stands for', async () => {
    const rnd = mulberry32(3);
    const home = (await fx.mongo.collections.properties.findOne({}))!;
    const shape = polygonText(starPolygon(rnd, { latitude: home.latitude, longitude: home.longitude }, 0.5, 100));
    const start = addDays(fx.today, 10);
    const base = `polygon=${encodeURIComponent(shape)}&check_in=${start}&check_out=${addDays(start, 45)}&per_page=5`;
    // Bedroom bounds and a rating threshold: the facets drop them, so their scope is not the search's own query.
    const args = `${base}&bedrooms=1&max_bedrooms=2&min_rating=3`;
    let answer: { total_count: number; facets?: Facets } | undefined;
    const bodies = await searchesSentDuring(async () => {
      answer = await searchGet(`${args}&facets=true`);
    });
    expect(answer!.total_count).toBeGreaterThan(0);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toContain('"global"');
    // The facets' own search: the polygon as its query, without the bedroom bounds and threshold the facets drop.
    const facetSearch = bodies.flatMap((b) => b.split('\n')).find((line) => line.includes('"facets"'));
    expect(facetSearch).toBeDefined();
    expect(facetSearch).toContain('"geo_shape"');
    expect(JSON.parse(facetSearch!).query.bool.filter).not.toContainEqual({ range: { bedrooms: { gte: 1, lte: 2 } } });

    const facets = answer!.facets!;
    const unbedded = `${base}&min_rating=3`;
    for (const b of facets.bedrooms)
      expect({ bedrooms: b.bedrooms, count: b.count }).toEqual({
        bedrooms: b.bedrooms,
        count: (await searchGet(`${unbedded}&bedrooms=${b.bedrooms}&max_bedrooms=${b.bedrooms}`)).total_count,
      });
    expect(facets.bedrooms.reduce((n, b) => n + b.count, 0)).toBe((await searchGet(unbedded)).total_count);
    for (const g of facets.guest_rating)
      expect({ bucket: g.guest_rating, count: g.count }).toEqual({
        bucket: g.guest_rating,
        count: (await searchGet(`${base}&bedrooms=1&max_bedrooms=2&guest_rating=${g.guest_rating}`)).total_count,
      });
    for (const f of facets.filters.slice(0, 4))
      expect({ filter: f.filter, count: f.count }).toEqual({ filter: f.filter, count: (await searchGet(`${args}&${f.filter}=true`)).total_count });
  }, 120_000);
});

describe('search_properties_tool with per_page 1000 over the whole country', () => {
  it('keeps the page under the byte bound, names the buildings it left out, and a smaller per_page shows them', async () => {
    const { status, bytes, message } = await toolCall(fx.url, 'search_properties_tool', { polygon: COUNTRY, per_page: 1000 });
    expect(status).toBe(200);
    const data = message.result.structuredContent as {
      properties: Array<{ id: string }>;
      omitted_properties: number;
      total_properties: number;
      per_page: number;
    };
    expect(data.total_properties).toBeGreaterThan(data.properties.length);
    expect(Buffer.byteLength(JSON.stringify(data.properties))).toBeLessThanOrEqual(PROPERTIES_MAX_BYTES);
    expect(data.omitted_properties).toBeGreaterThan(0);
    expect(data.properties.length + data.omitted_properties).toBe(Math.min(1000, data.total_properties));
    expect(data.per_page).toBe(1000);
    // The tool server sends the page twice (structured and as text): still under the 1 MiB hosts take.
    expect(bytes).toBeLessThan(1024 * 1024);
    // The first cards that fit, in the search's order: the same as a page of that many.
    const fitted = await toolCall(fx.url, 'search_properties_tool', { polygon: COUNTRY, per_page: data.properties.length });
    const smaller = fitted.message.result.structuredContent as { properties: Array<{ id: string }>; omitted_properties: number };
    expect(smaller.omitted_properties).toBe(0);
    expect(smaller.properties.map((p) => p.id)).toEqual(data.properties.map((p) => p.id));
  }, 120_000);
});

describe('cost-settled rate limits', () => {
  let tight: RunningService;
  const POINTS = 40;

  beforeAll(async () => {
    // The same world, served by a copy with a small budget; each test is a client of its own (X-Forwarded-For).
    tight = await startService({ ...fx.config, rateLimit: { ...fx.config.rateLimit, points: POINTS } });
  });

  afterAll(async () => {
    await tight?.close();
  });

  /** How many times `request` is answered before the client's budget refuses it. */
  async function answeredBeforeRefusal(request: () => Promise<number>): Promise<number> {
    for (let n = 0; n < POINTS + 1; n++) if ((await request()) === 429) return n;
    throw new Error('never refused');
  }

  it('GET: a map of the whole country exhausts the budget in fewer requests than a map of one building at the same weight', async () => {
    const home = (await fx.mongo.collections.properties.findOne({}))!;
    const small = polygonText(starPolygon(mulberry32(9), { latitude: home.latitude, longitude: home.longitude }, 0.001, 6));
    const map = (shape: string, client: string) => async () =>
      (await fetch(`${tight.url}/api/public/map-search?polygon=${encodeURIComponent(shape)}`, { headers: { 'x-forwarded-for': client } })).status;
    const cheap = await answeredBeforeRefusal(map(small, '10.7.0.1'));
    const costly = await answeredBeforeRefusal(map(polygonText(COUNTRY), '10.7.0.2'));
    // The same weight admits both POINTS / 4 times; the country's answer (250 pins) settles more.
    expect(cheap).toBe(POINTS / 4);
    expect(costly).toBeLessThan(cheap);
  }, 120_000);

  it('tool server: search_properties_tool over the country with per_page 1000 exhausts it in fewer calls than a page of one', async () => {
    const call = (perPage: number, client: string) => async () => {
      const { status, message } = await toolCall(tight.url, 'search_properties_tool', { polygon: COUNTRY, per_page: perPage }, client);
      return status === 429 || message.result?.isError ? 429 : status;
    };
    const cheap = await answeredBeforeRefusal(call(1, '10.7.0.3'));
    const costly = await answeredBeforeRefusal(call(1000, '10.7.0.4'));
    expect(cheap).toBe(POINTS / 4);
    expect(costly).toBeLessThan(cheap / 2);
  }, 240_000);
});
