/**
 * search_apartments_tool (GET /api/public/search) and search_apartments_on_map: the GET parameters and
 * the location arguments (docs/contract.md, "Location", "search_apartments_tool", "search_apartments_on_map"), over real HTTP and the SDK's MCP client on a generated world (test/e2e/shared/search-apartments.ts).
 * Expected homes come from the naive model (the stay engine over the records).
 */
import { addDays } from '../../services/kernel/engine/dates';
import type { Fixture } from '../support/fixture';
import { expectedResults, type World } from '../support/search-model';
import { searchCalls, startSearchWorld, type Home } from './shared/search-apartments';

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

const { get, call, errorOf } = searchCalls(() => fx);

describe('GET /api/public/search', () => {
  it("takes the contract's parameters (market, check_in, check_out, bedrooms, max_price) and answers the tool server's JSON", async () => {
    const queries: Array<[string, Record<string, unknown>]> = [
      [`market=${market}`, { market }],
      [
        `market=${city}&check_in=${d(30)}&check_out=${d(75)}&bedrooms=1&max_price=5000`,
        { market: city, start_date: d(30), end_date: d(75), min_bedrooms: 1, max_price: 5000 },
      ],
      [
        `market=${market}&check_in=${d(20)}&check_out=indefinite&committed_nights=180&sort_by=price_desc`,
        { market, start_date: d(20), end_date: 'indefinite', committed_nights: 180, sort_by: 'price_desc' },
      ],
      [`market=${market}&pets=true&min_rating=4&page=2&per_page=5`, { market, pets: true, min_rating: 4, page: 2, per_page: 5 }],
    ];
    for (const [query, args] of queries) {
      const res = await get(query);
      expect(res.status).toBe(200);
      const mcp = await call('search_apartments_tool', { ...args, include_hero_images: false });
      expect(mcp.structuredContent).toEqual(res.body);
    }
  });

  it('answers 400 for a parameter it does not take (scope is a tool argument), naming the accepted ones', async () => {
    for (const q of [`market=${market}&scope=x`, `market=${market}&start_date=${d(3)}`, `market=${market}&min_bedrooms=1`]) {
      const res = await get(q);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('unknown_parameter');
      expect(res.body.error.message).toContain('check_in');
    }
  });
});

describe('location arguments', () => {
  it('a city slug narrows to its homes and is echoed; a market slug covers all its cities', async () => {
    const byCity = (await get(`market=${city}&per_page=40`)).body;
    const byMarket = (await get(`market=${market}&per_page=40`)).body;
    expect(byCity.display_city).toEqual(expect.objectContaining({ slug: city }));
    expect(byCity.market).toEqual({ slug: market });
    expect(byMarket.display_city).toBeNull();
    expect(byCity.total_count).toBe(expectedResults(world, { market: city }).length);
    expect(byMarket.total_count).toBe(expectedResults(world, { market }).length);
    expect(byMarket.total_count).toBeGreaterThan(byCity.total_count);
    // Slugs are read lower-case and trimmed.
    const shouted = (await get(`market=${encodeURIComponent(` ${city.toUpperCase()} `)}&per_page=40`)).body;
    expect(shouted.display_city.slug).toBe(city);
    expect(shouted.total_count).toBe(byCity.total_count);
  });

  it('a slug naming both a market and its main city means the whole market; scope.display_city asks for the city', async () => {
    const shared = world.markets.find((m) => m.cities.some((c) => c.slug === m.slug) && m.cities.length > 1)!;
    expect(shared).toBeDefined();
    for (const args of [{ market: shared.slug }, { scope: { market: shared.slug } }]) {
      const whole = (await call('search_apartments_tool', { ...args, per_page: 1, include_hero_images: false })).structuredContent as Home;
      expect(whole.display_city).toBeNull();
      expect(whole.total_count).toBe(expectedResults(world, { market: shared.slug }).length);
    }
    const cityOnly = (await call('search_apartments_tool', { scope: { display_city: shared.slug }, per_page: 1, include_hero_images: false }))
      .structuredContent as Home;
    expect(cityOnly.display_city.slug).toBe(shared.slug);
    expect(cityOnly.total_count).toBe(expectedResults(world, { scope: { display_city: shared.slug } }).length);
    expect(cityOnly.total_count).toBeLessThan(expectedResults(world, { market: shared.slug }).length);
    // What market-info counts for the slug is what the search returns.
    const info = (await fx.get(`/api/public/market-info?market=${shared.slug}`)).body;
    expect(info.inventory_count).toBe(expectedResults(world, { market: shared.slug }).length);
  });

  it('takes scope.display_city over scope.market over market', async () => {
    const other = world.markets.find((m) => m.slug !== market)!;
    const a = (await call('search_apartments_tool', { market: other.slug, scope: { display_city: city }, include_hero_images: false }))
      .structuredContent as Home;
    expect(a.display_city.slug).toBe(city);
    const b = (await call('search_apartments_tool', { market: other.slug, scope: { market: city }, include_hero_images: false })).structuredContent as Home;
    expect(b.display_city.slug).toBe(city);
    const c = (await call('search_apartments_tool', { scope: { market }, include_hero_images: false })).structuredContent as Home;
    expect(c.market.slug).toBe(market);
    expect(c.display_city).toBeNull();
  });

  it('refuses no location (400 / error result), an unknown slug (404 / error result), a scope with two places', async () => {
    const none = await get('check_in=' + d(3));
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('invalid_parameters');
    expect(errorOf(await call('search_apartments_tool', {})).code).toBe('invalid_parameters');
    const unknown = await get('market=atlantis');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('market_not_found');
    expect(errorOf(await call('search_apartments_tool', { market: 'atlantis' })).code).toBe('market_not_found');
    expect(errorOf(await call('search_apartments_on_map', { scope: { display_city: 'atlantis' } })).code).toBe('market_not_found');
    expect(errorOf(await call('search_apartments_tool', { scope: { display_city: city, market } })).code).toBe('invalid_parameters');
    // A market slug is not a display city.
    expect(
      errorOf(
        await call('search_apartments_tool', {
          scope: { display_city: world.markets.find((m) => !m.cities.some((c) => c.slug === m.slug))?.slug ?? 'atlantis' },
        }),
      ).code,
    ).toBe('market_not_found');
  });
});
