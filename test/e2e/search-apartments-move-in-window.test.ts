/**
 * search_apartments_tool (GET /api/public/search) and search_apartments_on_map (GET /api/public/map-search):
 * a window of move-in dates (docs/contract.md, "A window of move-in dates"), over real HTTP and the
 * SDK's MCP client on a generated world (test/e2e/shared/search-apartments.ts). Expected homes come
 * from a brute-force model (every start of the window checked and priced by the stay engine over the
 * records), and the quotes of the quote tool, start by start.
 */
import { addDays } from '../../services/kernel/engine/dates';
import type { Fixture } from '../support/fixture';
import { expectedResults, orderedPair, type ModelArgs, type ModelResult, type World } from '../support/search-model';
import { searchCalls, slugsOf, type Home } from './shared/search-apartments';
import { startSearchWorld } from './shared/search-apartments';

let fx: Fixture;
let world: World;
let market: string;
let city: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  ({ fx, world, city, market } = await startSearchWorld());
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

const { get, call, errorOf, allHomes } = searchCalls(() => fx);
const TOOLS = ['search_apartments_tool', 'search_apartments_on_map'] as const;
const ROUTES = ['/api/public/search', '/api/public/map-search'] as const;

/** The GET query of tool arguments (dates renamed as the routes take them). */
function query(args: Record<string, unknown>): string {
  const renames: Record<string, string> = { start_date: 'check_in', latest_start_date: 'latest_check_in', end_date: 'check_out' };
  return Object.entries(args)
    .map(([k, v]) => `${renames[k] ?? k}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/** What the model says of each returned home: the same chosen stay and price, and the fields that follow from it. */
function expectChosen(homes: Home[], expected: ModelResult[]): void {
  const bySlug = new Map(expected.map((r) => [r.slug, r]));
  expect(slugsOf(homes)).toEqual(slugsOf(expected));
  for (const h of homes) {
    const model = bySlug.get(h.slug)!;
    const s = model.stay;
    const stay =
      s.kind === 'fixed'
        ? { start_date: s.start_date, end_date: s.end_date, nights: h.stay.nights }
        : { start_date: s.start_date, end_date: null, nights: s.committed_nights };
    expect({ slug: h.slug, stay: h.stay }).toEqual({ slug: h.slug, stay });
    expect({ slug: h.slug, price: h.display_price_with_discount, label: h.display_price_label }).toEqual({
      slug: h.slug,
      price: model.price.display_price_with_discount,
      label: model.price.display_price_label,
    });
    const link = Object.fromEntries(new URL(h.home_url).searchParams);
    expect(link).toEqual(
      s.kind === 'fixed'
        ? { start_date: s.start_date, end_date: s.end_date }
        : { start_date: s.start_date, end_date: 'indefinite', committed_nights: String(s.committed_nights) },
    );
  }
}

describe('a window of move-in dates: refusals, on both transports', () => {
  const refused: Array<[string, () => Record<string, unknown>, string]> = [
    ['latest_start_date before start_date', () => ({ start_date: d(20), latest_start_date: d(19), nights: 30 }), 'invalid_date'],
    ['latest_start_date more than 60 days after start_date', () => ({ start_date: d(20), latest_start_date: d(81), nights: 30 }), 'invalid_date'],
    [
      'an end_date other than "indefinite" with latest_start_date',
      () => ({ start_date: d(20), latest_start_date: d(30), end_date: d(60) }),
      'invalid_parameters',
    ],
    [
      'an end_date and nights with latest_start_date',
      () => ({ start_date: d(20), latest_start_date: d(30), end_date: d(60), nights: 30 }),
      'invalid_parameters',
    ],
    [
      'nights with "indefinite"',
      () => ({ start_date: d(20), latest_start_date: d(30), end_date: 'indefinite', committed_nights: 180, nights: 30 }),
      'invalid_parameters',
    ],
    ['nights with "indefinite" and no window', () => ({ start_date: d(20), end_date: 'indefinite', committed_nights: 180, nights: 30 }), 'invalid_parameters'],
    ['nights without latest_start_date', () => ({ start_date: d(20), nights: 30 }), 'invalid_parameters'],
    ['latest_start_date without start_date', () => ({ latest_start_date: d(30), nights: 30 }), 'invalid_parameters'],
    ['latest_start_date without a length', () => ({ start_date: d(20), latest_start_date: d(30) }), 'invalid_parameters'],
    ['a Flex window without committed_nights', () => ({ start_date: d(20), latest_start_date: d(30), end_date: 'indefinite' }), 'invalid_parameters'],
    ['latest_start_date past the search reach (365 days)', () => ({ start_date: d(340), latest_start_date: d(366), nights: 30 }), 'invalid_date'],
    ['latest_start_date not a real date', () => ({ start_date: d(20), latest_start_date: '2027-02-30', nights: 30 }), 'invalid_date'],
    ['facets with a window', () => ({ start_date: d(20), latest_start_date: d(30), nights: 30, facets: true }), 'invalid_parameters'],
    ['a window whose every stay would end more than 3 years ahead', () => ({ start_date: d(20), latest_start_date: d(30), nights: 1_095 }), 'invalid_date'],
  ];

  it.each(refused)('refuses %s with the error object (400 on GET, a tool error on MCP)', async (_name, args, code) => {
    for (const route of ROUTES) {
      const res = await fx.get(`${route}?market=${market}&${query(args())}`);
      expect({ route, status: res.status }).toEqual({ route, status: 400 });
      expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
    }
    for (const tool of TOOLS) {
      const err = errorOf(await call(tool, { market, ...args() }));
      expect({ tool, code: err.code }).toEqual({ tool, code });
    }
  });

  it('refuses nights out of 1..1095 as invalid parameters on both transports', async () => {
    for (const nights of [0, 1096]) {
      expect((await get(`market=${market}&check_in=${d(20)}&latest_check_in=${d(30)}&nights=${nights}`)).status).toBe(400);
      expect(errorOf(await call('search_apartments_tool', { market, start_date: d(20), latest_start_date: d(30), nights })).code).toBe('invalid_parameters');
    }
  });

  it('takes a window of exactly 60 days, and of one day (latest_start_date = start_date)', async () => {
    expect((await get(`market=${market}&check_in=${d(20)}&latest_check_in=${d(80)}&nights=30`)).status).toBe(200);
    expect((await get(`market=${market}&check_in=${d(20)}&latest_check_in=${d(20)}&nights=30`)).status).toBe(200);
  });

  it('on MCP, latest_check_in is refused naming latest_start_date', async () => {
    const err = errorOf(await call('search_apartments_tool', { market, start_date: d(20), latest_check_in: d(30), nights: 30 }));
    expect(err).toEqual({ code: 'unknown_parameter', message: expect.stringContaining('latest_start_date') });
  });
});

describe('a window of move-in dates: the answer', () => {
  it('a 30-day window of 90-night stays: exactly the homes with a bookable start, each with its cheapest start (earliest on a tie)', async () => {
    const args = { market, start_date: d(10), latest_start_date: d(40), nights: 90 };
    const homes = await allHomes(args);
    const expected = expectedResults(world, args);
    expect(expected.length).toBeGreaterThan(10);
    expectChosen(homes, expected);
    // Not every chosen stay is the window's first day: the search really chooses.
    expect(new Set(homes.map((h) => h.stay.start_date)).size).toBeGreaterThan(1);
    for (const h of homes) expect(h).toMatchObject({ is_price_monthly: true, duration_label: '/mo', stay: { nights: 90 } });
  });

  it('short stays (5 nights, a nightly price) in a city, and a window whose first days are in the past', async () => {
    const short = { market: city, start_date: d(3), latest_start_date: d(17), nights: 5 };
    const homes = await allHomes(short);
    expectChosen(homes, expectedResults(world, short));
    for (const h of homes) expect(h).toMatchObject({ is_price_nightly: true, duration_label: '/night' });
    const past = { market: city, start_date: d(-5), latest_start_date: d(6), nights: 30 };
    const early = await allHomes(past);
    expectChosen(early, expectedResults(world, past));
    for (const h of early) expect(h.stay.start_date >= fx.today).toBe(true);
  });

  it('the chosen stay quotes available at the same price, and no other start of the window quotes cheaper (get_quote_tool, start by start)', async () => {
    const args = { market: city, start_date: d(25), latest_start_date: d(38), nights: 45 };
    const homes = await allHomes(args);
    expect(homes.length).toBeGreaterThan(3);
    for (const h of homes.slice(0, 4)) {
      for (let start = args.start_date; start <= args.latest_start_date; start = addDays(start, 1)) {
        const quote = await fx.get(`/api/public/homes/${h.slug}/quote?check_in=${start}&check_out=${addDays(start, 45)}`);
        expect(quote.status).toBe(200);
        if (start === h.stay.start_date) {
          expect(quote.body).toMatchObject({ available: true, display_price_with_discount: h.display_price_with_discount });
        } else if (quote.body.available) {
          // Cheaper nowhere, and as cheap only later.
          expect({ start, price: quote.body.display_price_with_discount >= h.display_price_with_discount }).toEqual({ start, price: true });
          if (quote.body.display_price_with_discount === h.display_price_with_discount) expect(start > h.stay.start_date).toBe(true);
        }
      }
    }
  });

  it('a home of the place that is not returned has no start in the window it can be quoted for', async () => {
    const args = { market: city, start_date: d(25), latest_start_date: d(38), nights: 45 };
    const shown = new Set(slugsOf(await allHomes(args)));
    const all = expectedResults(world, { market: city }).filter((r) => !shown.has(r.slug));
    expect(all.length).toBeGreaterThan(0);
    for (const r of all.slice(0, 3)) {
      for (let start = args.start_date; start <= args.latest_start_date; start = addDays(start, 1)) {
        const quote = await fx.get(`/api/public/homes/${r.slug}/quote?check_in=${start}&check_out=${addDays(start, 45)}`);
        expect({ slug: r.slug, start, available: quote.body.available }).toEqual({ slug: r.slug, start, available: false });
      }
    }
  });

  it('min_price/max_price keep the homes with a start inside them, the chosen stay the cheapest inside them', async () => {
    const base = { market, start_date: d(10), latest_start_date: d(40), nights: 90 };
    const prices = expectedResults(world, base)
      .map((r) => r.price.display_price_with_discount)
      .sort((a, b) => a - b);
    const mid = prices[Math.floor(prices.length / 2)];
    for (const limits of [{ max_price: mid }, { min_price: mid }, { min_price: prices[Math.floor(prices.length / 4)], max_price: mid }]) {
      const args = { ...base, ...limits };
      expectChosen(await allHomes(args), expectedResults(world, args));
    }
  });

  it('a Flex tier: homes that can hold it from a start of the window, from the earliest such start (the tier price is the same from each)', async () => {
    const args = { market, start_date: d(5), latest_start_date: d(19), end_date: 'indefinite', committed_nights: 180 };
    const homes = await allHomes(args);
    const expected = expectedResults(world, args);
    expect(expected.length).toBeGreaterThan(0);
    expectChosen(homes, expected);
    for (const h of homes) {
      expect(h.stay).toMatchObject({ end_date: null, nights: 180 });
      const quote = await fx.get(`/api/public/homes/${h.slug}/quote?check_in=${h.stay.start_date}&check_out=indefinite&committed_nights=180`);
      expect(quote.body).toMatchObject({ available: true, display_price_with_discount: h.display_price_with_discount });
    }
  });

  it('a Flex tier within price limits, by price and by availability: the model’s homes in the model’s order', async () => {
    // Few homes of one market hold a six-month tier: the whole country, as a drawn polygon (the model: every place).
    const base = { start_date: d(5), latest_start_date: d(60), end_date: 'indefinite', committed_nights: 180 };
    const country = [
      { latitude: 24, longitude: -125 },
      { latitude: 24, longitude: -66 },
      { latitude: 50, longitude: -66 },
      { latitude: 50, longitude: -125 },
    ];
    const prices = expectedResults(world, base)
      .map((r) => r.price.display_price_with_discount)
      .sort((x, y) => x - y);
    expect(prices.length).toBeGreaterThan(3);
    for (const sort of ['price_desc', 'availability']) {
      const args = { ...base, sort_by: sort, max_price: prices[Math.floor((prices.length * 2) / 3)] };
      const homes = await allHomes({ ...args, polygon: country });
      const model = new Map(expectedResults(world, args).map((r) => [r.slug, r]));
      expectChosen(homes, [...model.values()]);
      for (let k = 1; k < homes.length; k++) {
        expect({ sort, at: k, ordered: orderedPair(sort, model.get(homes[k - 1].slug)!, model.get(homes[k].slug)!, world.today, true) }).toEqual({
          sort,
          at: k,
          ordered: true,
        });
      }
    }
  });

  it('flex_options are priced from the chosen start (as its quotes give them, where the tier can be held)', async () => {
    const args = { market, start_date: d(10), latest_start_date: d(40), nights: 90 };
    const homes = (await allHomes(args)).filter((h) => h.eligible_for_flex);
    let compared = 0;
    for (const h of homes.slice(0, 4)) {
      for (const option of h.flex_options) {
        const quote = await fx.get(
          `/api/public/homes/${h.slug}/quote?check_in=${h.stay.start_date}&check_out=indefinite&committed_nights=${option.committed_nights}`,
        );
        if (!quote.body.available) continue;
        expect(option.display_price_with_discount).toBe(quote.body.display_price_with_discount);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe('a window of move-in dates: order, pages and total_count', () => {
  // 56 days of 30-night move-ins: a window over two or three price cells, and many homes.
  const args = (sort_by: string): ModelArgs => ({ market, start_date: d(4), latest_start_date: d(60), nights: 30, sort_by });

  it.each(['price_asc', 'price_desc', 'availability', 'newest', 'rating_desc'])('sort_by %s: every page in order of the chosen stay', async (sort) => {
    const homes = await allHomes(args(sort));
    const model = new Map(expectedResults(world, args(sort)).map((r) => [r.slug, r]));
    expect(model.size).toBeGreaterThan(40);
    expect(homes.length).toBe(model.size);
    expectChosen(homes, [...model.values()]);
    for (let k = 1; k < homes.length; k++) {
      const ordered = orderedPair(sort, model.get(homes[k - 1].slug)!, model.get(homes[k].slug)!, world.today, true);
      expect({ sort, at: k, ordered }).toEqual({ sort, at: k, ordered: true });
    }
  });

  it.each(['price_asc', 'price_desc', 'availability'])('sort_by %s within price limits: the chosen stays inside them, in order', async (sort) => {
    const prices = expectedResults(world, args(sort))
      .map((r) => r.price.display_price_with_discount)
      .sort((x, y) => x - y);
    const limited = { ...args(sort), min_price: prices[Math.floor(prices.length / 5)], max_price: prices[Math.floor((prices.length * 3) / 5)] };
    const homes = await allHomes(limited);
    const model = new Map(expectedResults(world, limited).map((r) => [r.slug, r]));
    expectChosen(homes, [...model.values()]);
    for (let k = 1; k < homes.length; k++) {
      const ordered = orderedPair(sort, model.get(homes[k - 1].slug)!, model.get(homes[k].slug)!, world.today, true);
      expect({ sort, at: k, ordered }).toEqual({ sort, at: k, ordered: true });
    }
  });

  it('total_count and total_pages count every match; pages neither overlap nor skip', async () => {
    const a = args('price_asc');
    const first = (await call('search_apartments_tool', { ...a, per_page: 7, include_hero_images: false })).structuredContent as Home;
    expect(first.total_pages).toBeGreaterThan(3);
    const expected = expectedResults(world, a);
    expect(first).toMatchObject({ total_count: expected.length, total_pages: Math.ceil(expected.length / 7), page: 1, per_page: 7, count: 7 });
    const seen: string[] = [];
    for (let page = 1; page <= first.total_pages; page++) {
      const res = (await call('search_apartments_tool', { ...a, per_page: 7, page, include_hero_images: false })).structuredContent as Home;
      seen.push(...res.homes.map((h: Home) => h.slug));
    }
    expect(seen.length).toBe(new Set(seen).size);
    expect(seen.sort()).toEqual(slugsOf(expected));
    const past = (await call('search_apartments_tool', { ...a, per_page: 7, page: first.total_pages + 1 })).structuredContent as Home;
    expect(past.homes).toEqual([]);
  });

  it('GET answers what the tool answers (latest_check_in, nights), with the stay in each home', async () => {
    const a = { ...args('availability'), per_page: 10 };
    const res = await get(query({ ...a }));
    expect(res.status).toBe(200);
    const tool = (await call('search_apartments_tool', { ...a, include_hero_images: false })).structuredContent;
    expect(res.body).toEqual(tool);
    expect(res.body.homes[0].stay).toEqual({ start_date: expect.any(String), end_date: expect.any(String), nights: 30 });
  });

  it('search_apartments_on_map: the pins are the same homes, each with its chosen stay; GET agrees', async () => {
    const a = { market: city, start_date: d(10), latest_start_date: d(40), nights: 90 };
    const map = (await call('search_apartments_on_map', a)).structuredContent as Home;
    const expected = expectedResults(world, a);
    expect(map.total_count).toBe(expected.length);
    expectChosen(map.homes, expected);
    const res = await fx.get(`/api/public/map-search?${query(a)}`);
    expect(res.body.homes.map((h: Home) => [h.slug, h.stay])).toEqual(map.homes.map((h: Home) => [h.slug, h.stay]));
    // The text block's brief of each pin names its stay too.
    const text = JSON.parse(((await call('search_apartments_on_map', a)).content as Array<{ text: string }>)[0].text);
    expect(text.homes.map((h: Home) => [h.slug, h.stay])).toEqual(map.homes.map((h: Home) => [h.slug, h.stay]));
  });

  it('search_apartments_on_map with a viewport and more matches than pins: clusters count every match and carry no price', async () => {
    // The whole country, short stays from any of 56 days: more than 250 homes.
    const a = { start_date: d(4), latest_start_date: d(60), nights: 3, sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 };
    const expected = expectedResults(world, a);
    expect(expected.length).toBeGreaterThan(250);
    const res = (await call('search_apartments_on_map', a)).structuredContent as Home;
    expect(res).toMatchObject({ market: null, total_count: expected.length, count: 250 });
    expect(res.clusters.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(expected.length);
    for (const c of res.clusters) {
      expect(c).not.toHaveProperty('cheapest_display_price');
      expect(c).not.toHaveProperty('cheapest_display_price_at_least');
    }
    // The pins are the first 250 by the chosen stay's price.
    const prices = res.homes.map((h: Home) => h.display_price_with_discount);
    expect(prices).toEqual([...prices].sort((x, y) => x - y));
    const byPrice = expected.map((r) => r.price.display_price_with_discount).sort((x, y) => x - y);
    expect(prices).toEqual(byPrice.slice(0, 250));
  });
});

describe('where agents see it', () => {
  it('the find_a_stay prompt searches a window of move-in dates for a flexible guest, and says to on fixed dates too', async () => {
    const client = await fx.mcp();
    const flexible = await client.getPrompt({ name: 'find_a_stay', arguments: { place: 'Austin', start_date: d(30), latest_start_date: d(58), nights: '90' } });
    const text = (flexible.messages[0].content as { text: string }).text;
    for (const part of ['search_apartments_tool', `latest_start_date ${d(58)}`, 'nights 90', 'get_quote_tool', 'stay.start_date']) expect(text).toContain(part);
    const fixed = await client.getPrompt({ name: 'find_a_stay', arguments: { place: 'Austin', start_date: d(30), end_date: d(60) } });
    expect((fixed.messages[0].content as { text: string }).text).toContain('latest_start_date');
  });

  it('tools.json, the tools markdown and openapi.json describe the window arguments and the stay', async () => {
    const tools = (await fx.get('/api/public/tools.json')).body.tools as Array<{ name: string; description: string; inputSchema: any; outputSchema: any }>;
    for (const name of TOOLS) {
      const tool = tools.find((t) => t.name === name)!;
      expect(Object.keys(tool.inputSchema.properties)).toEqual(expect.arrayContaining(['latest_start_date', 'nights']));
      expect(tool.outputSchema.properties.homes.items.properties.stay.required).toEqual(['start_date', 'end_date', 'nights']);
    }
    expect(tools.find((t) => t.name === 'search_apartments_tool')!.description).toContain('latest_start_date');
    const markdown = (await fx.get('/api/public/tools')).body as string;
    expect(markdown).toContain('latest_start_date');
    const openapi = (await fx.get('/api/public/openapi.json')).body;
    for (const route of ROUTES) {
      const names = openapi.paths[route].get.parameters.map((q: { name: string }) => q.name);
      expect({ route, names }).toEqual({ route, names: expect.arrayContaining(['check_in', 'latest_check_in', 'nights']) });
    }
  });
});
