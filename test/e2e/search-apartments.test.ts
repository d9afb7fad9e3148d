/**
 * search_apartments_tool (GET /api/public/search) and search_apartments_on_map, rule by rule
 * (docs/contract.md, "Location", "Filters", "Dates", "search_apartments_tool",
 * "search_apartments_on_map"), over real HTTP and the SDK's MCP client on a
 * generated world. Expected homes come from the naive model (the stay engine over the records).
 */
import { addDays, addYears } from '../../services/kernel/engine/dates';
import { displayPrice } from '../../services/kernel/engine/pricing';
import { offeredTiers } from '../../services/kernel/engine/flex';
import { startFixture, type Fixture } from '../support/fixture';
import { busiestCity, expectedResults, loadWorld, type ModelArgs, type World } from '../support/search-model';

let fx: Fixture;
let world: World;
let market: string;
let city: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  fx = await startFixture({ homes: 600, seed: 5 });
  world = await loadWorld(fx.mongo.collections, fx.today);
  ({ city, market } = busiestCity(world));
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

type Home = { slug: string } & Record<string, any>;

async function get(query: string) {
  return fx.get(`/api/public/search?${query}`);
}

async function call(name: string, args: Record<string, unknown>) {
  const client = await fx.mcp();
  return client.callTool({ name, arguments: args });
}

function errorOf(result: Awaited<ReturnType<typeof call>>): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
}

/** Every page of a tool search, concatenated. */
async function allHomes(args: Record<string, unknown>): Promise<Home[]> {
  const homes: Home[] = [];
  for (let page = 1; ; page++) {
    const res = (await call('search_apartments_tool', { ...args, page, per_page: 40, include_hero_images: false })).structuredContent as Home;
    homes.push(...res.homes);
    if (page >= res.total_pages) return homes;
  }
}

const slugsOf = (xs: Array<{ slug: string }>): string[] => xs.map((x) => x.slug).sort();

describe('GET /api/public/search', () => {
  it("takes the contract's parameters (market, check_in, check_out, bedrooms, max_price) and answers the tool server's JSON", async () => {
    const queries: Array<[string, Record<string, unknown>]> = [
      [`market=${market}`, { market }],
      [`market=${city}&check_in=${d(30)}&check_out=${d(75)}&bedrooms=1&max_price=5000`, { market: city, start_date: d(30), end_date: d(75), min_bedrooms: 1, max_price: 5000 }],
      [`market=${market}&check_in=${d(20)}&check_out=indefinite&committed_nights=180&sort_by=price_desc`, { market, start_date: d(20), end_date: 'indefinite', committed_nights: 180, sort_by: 'price_desc' }],
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
    const cityOnly = (await call('search_apartments_tool', { scope: { display_city: shared.slug }, per_page: 1, include_hero_images: false })).structuredContent as Home;
    expect(cityOnly.display_city.slug).toBe(shared.slug);
    expect(cityOnly.total_count).toBe(expectedResults(world, { scope: { display_city: shared.slug } }).length);
    expect(cityOnly.total_count).toBeLessThan(expectedResults(world, { market: shared.slug }).length);
    // What market-info counts for the slug is what the search returns.
    const info = (await fx.get(`/api/public/market-info?market=${shared.slug}`)).body;
    expect(info.inventory_count).toBe(expectedResults(world, { market: shared.slug }).length);
  });

  it('takes scope.display_city over scope.market over market', async () => {
    const other = world.markets.find((m) => m.slug !== market)!;
    const a = (await call('search_apartments_tool', { market: other.slug, scope: { display_city: city }, include_hero_images: false })).structuredContent as Home;
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
    expect(errorOf(await call('search_apartments_tool', { scope: { display_city: world.markets.find((m) => !m.cities.some((c) => c.slug === m.slug))?.slug ?? 'atlantis' } })).code).toBe('market_not_found');
  });
});

describe('dates (rule 1, Limits)', () => {
  it.each(['check_in', 'check_out', 'checkin', 'checkout', 'start', 'end'])('the tools refuse "%s" instead of searching undated', async (name) => {
    for (const tool of ['search_apartments_tool', 'search_apartments_on_map']) {
      const err = errorOf(await call(tool, { market, [name]: d(10) }));
      expect(err.code).toBe('unknown_parameter');
      expect(err.message).toMatch(/start_date|end_date/);
    }
  });

  it('takes start_date up to 365 days ahead and refuses later, more than 7 days past, or an end past 3 years', async () => {
    expect((await get(`market=${market}&check_in=${d(365)}`)).status).toBe(200);
    expect((await get(`market=${market}&check_in=${d(366)}`)).body.error.code).toBe('invalid_date');
    expect((await get(`market=${market}&check_in=${d(-8)}&check_out=${d(20)}`)).body.error.code).toBe('invalid_date');
    expect((await get(`market=${market}&check_in=${d(10)}&check_out=${addDays(addYears(fx.today, 3), 1)}`)).body.error.code).toBe('invalid_date');
    expect((await get(`market=${market}&check_in=${d(10)}&check_out=${addYears(fx.today, 3)}`)).status).toBe(200);
    for (const bad of [`check_in=${d(10)}&check_out=${d(10)}`, `check_out=${d(10)}`, 'check_in=2027-02-30', `check_in=${d(10)}&check_out=${d(40)}&committed_nights=180`]) {
      const res = await get(`market=${market}&${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
  });

  it('a move-in date up to 7 days past is taken, and finds nothing: no stay starts in the past', async () => {
    const res = await get(`market=${market}&check_in=${d(-7)}&check_out=${d(20)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_count: 0, total_pages: 0, homes: [] });
  });

  it('undated: every home search can return, at the reference price the apartment read shows', async () => {
    const homes = await allHomes({ market: city });
    expect(slugsOf(homes)).toEqual(slugsOf(expectedResults(world, { market: city })));
    for (const h of homes.slice(0, 5)) {
      const read = await fx.get(`/api/public/homes/${h.slug}`);
      expect(h.display_price_with_discount).toBe(read.body.display_price_with_discount);
      expect(h.display_price_label).toBe(read.body.display_price_label);
      expect(new URL(h.home_url).search).toBe('');
    }
  });

  it('a move-in date alone: the homes a stay can start in on that date; the link carries the date', async () => {
    const args = { market, start_date: d(45) };
    const homes = await allHomes(args);
    expect(slugsOf(homes)).toEqual(slugsOf(expectedResults(world, args)));
    for (const h of homes) expect(Object.fromEntries(new URL(h.home_url).searchParams)).toEqual({ start_date: d(45) });
  });

  it('a fixed stay: only homes that can be booked for it, each with that stay\'s price and the dates in its link', async () => {
    const args = { market, start_date: d(21), end_date: d(26) };
    const homes = await allHomes(args);
    const expected = expectedResults(world, args);
    expect(slugsOf(homes)).toEqual(slugsOf(expected));
    expect(homes.length).toBeGreaterThan(0);
    for (const h of homes) {
      expect(h).toMatchObject({ is_price_nightly: true, duration_label: '/night', display_price_label: 'per night for 5 nights' });
      expect(Object.fromEntries(new URL(h.home_url).searchParams)).toEqual({ start_date: d(21), end_date: d(26) });
    }
  });

  it('Flex with a tier (rule 3): homes offering it that can hold the commitment, priced at that tier', async () => {
    const args = { market, start_date: d(14), end_date: 'indefinite', committed_nights: 365 };
    const homes = await allHomes(args);
    const expected = expectedResults(world, args);
    expect(slugsOf(homes)).toEqual(slugsOf(expected));
    for (const h of homes) {
      expect(h.display_price_label).toBe('per month with a 12-month Flex commitment');
      expect(Object.fromEntries(new URL(h.home_url).searchParams)).toEqual({ start_date: d(14), end_date: 'indefinite', committed_nights: '365' });
    }
  });

  it('Flex without a tier: every home open to Flex, at the cheapest tier it can hold, named in the link', async () => {
    const args = { market, start_date: d(14), end_date: 'indefinite' };
    const homes = await allHomes(args);
    const expected = new Map(expectedResults(world, args).map((r) => [r.slug, r]));
    expect(slugsOf(homes)).toEqual([...expected.keys()].sort());
    for (const h of homes) {
      const model = expected.get(h.slug)!;
      expect(h.display_price_with_discount).toBe(model.price.display_price_with_discount);
      const cn = new URL(h.home_url).searchParams.get('committed_nights');
      expect(model.stay).toEqual({ kind: 'flex', start_date: d(14), committed_nights: Number(cn) });
      const quote = await fx.get(`/api/public/homes/${h.slug}/quote?check_in=${d(14)}&check_out=indefinite&committed_nights=${cn}`);
      expect(quote.body.display_price_with_discount).toBe(h.display_price_with_discount);
    }
  });
});

describe('price limits and price_unit (rule 2)', () => {
  it('compares a short stay per night and a long one per month by default; price_unit converts by 30', async () => {
    const short = { market, start_date: d(21), end_date: d(26) };
    const prices = expectedResults(world, short).map((r) => r.price.display_price_with_discount).sort((a, b) => a - b);
    const mid = prices[Math.floor(prices.length / 2)];
    for (const args of [
      { ...short, max_price: mid },
      { ...short, min_price: mid },
      { ...short, max_price: mid * 30 + 15, price_unit: 'per_month' },
      { market, start_date: d(21), end_date: d(80), max_price: 4200 },
      { market, start_date: d(21), end_date: d(80), max_price: 140, price_unit: 'per_night' },
    ] as ModelArgs[]) {
      const homes = await allHomes(args);
      expect({ args, slugs: slugsOf(homes) }).toEqual({ args, slugs: slugsOf(expectedResults(world, args)) });
    }
  });

  it('refuses a min_price above max_price, bedrooms above max_bedrooms, and a limit past any rent (never a 5xx)', async () => {
    expect((await get(`market=${market}&min_price=3000&max_price=2000`)).body.error.code).toBe('invalid_parameters');
    const beds = await get(`market=${market}&bedrooms=2&max_bedrooms=1`);
    expect(beds.status).toBe(400);
    expect(beds.body.error.message).toBe('bedrooms 2 is above max_bedrooms 1.');
    // GET errors name the GET parameters; the tool server's name the tool arguments.
    const noStart = await get(`market=${market}&check_out=${d(30)}`);
    expect(noStart.status).toBe(400);
    expect(noStart.body.error.message).toMatch(/check_in/);
    expect(noStart.body.error.message).not.toMatch(/start_date|end_date/);
    expect(errorOf(await call('search_apartments_tool', { market, end_date: d(30) })).message).toMatch(/start_date/);
    expect(errorOf(await call('availability_overview_tool', { market, min_price: 3000, max_price: 2000 })).code).toBe('invalid_parameters');
    expect(errorOf(await call('search_properties_tool', { market, min_bedrooms: 3, max_bedrooms: 1 })).code).toBe('invalid_parameters');
    const huge = await get(`market=${market}&check_in=${d(5)}&check_out=${d(9)}&max_price=99999999999&price_unit=per_night`);
    expect(huge.status).toBe(400);
    expect(huge.body.error.code).toBe('invalid_parameters');
    expect((await get(`market=${market}&check_in=${d(5)}&check_out=${d(45)}&max_price=1000000&price_unit=per_night`)).status).toBe(200);
  });
});

describe('shared filters', () => {
  const flags = ['pets', 'cats', 'dogs', 'parking', 'pool', 'gym', 'in_unit_laundry', 'air_conditioned', 'balcony', 'elevator', 'first_floor_unit', 'self_check_in', 'deals_only'];

  it.each(flags)('%s=true keeps exactly the homes that have it', async (flag) => {
    const args = { market, [flag]: true };
    const expected = expectedResults(world, args);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(expectedResults(world, { market }).length);
    expect(slugsOf(await allHomes(args))).toEqual(slugsOf(expected));
  });

  it('bounds bedrooms (0 = studio) and bathrooms', async () => {
    for (const args of [{ market, max_bedrooms: 0 }, { market, min_bedrooms: 2, max_bedrooms: 3 }, { market, min_bathrooms: 2 }]) {
      const homes = await allHomes(args);
      expect(homes.length).toBeGreaterThan(0);
      expect(slugsOf(homes)).toEqual(slugsOf(expectedResults(world, args)));
    }
    expect((await allHomes({ market, max_bedrooms: 0 })).every((h) => h.bedrooms === 0)).toBe(true);
  });

  it('min_rating and guest_rating: the stricter applies, unrated buildings never match', async () => {
    for (const args of [
      { market, min_rating: 3.6, guest_rating: 'EXCELLENT' },
      { market, min_rating: 4.8, guest_rating: 'GOOD' },
      { market, guest_rating: 'VERY_GOOD' },
    ] as ModelArgs[]) {
      const homes = await allHomes(args);
      expect(slugsOf(homes)).toEqual(slugsOf(expectedResults(world, args)));
      for (const h of homes) expect(h.property.member_rating.average).toBeGreaterThanOrEqual(Math.max(args.min_rating ?? 0, { EXCELLENT: 4.5, VERY_GOOD: 4, GOOD: 3.5 }[args.guest_rating!]));
    }
    const unrated = expectedResults(world, { market }).filter((r) => r.m.property.rating === null);
    expect(unrated.length).toBeGreaterThan(0);
    const rated = await allHomes({ market, min_rating: 1 });
    expect(rated.length).toBe(expectedResults(world, { market }).length - unrated.length);
  });

  it('refuses one coordinate without the other, and a radius without a point', async () => {
    expect((await get(`market=${market}&near_latitude=42.3`)).body.error.code).toBe('invalid_parameters');
    expect((await get(`market=${market}&near_radius_miles=2`)).body.error.code).toBe('invalid_parameters');
  });
});

describe('sorts and pages (rule 5, Limits)', () => {
  it('rating_desc puts unrated buildings last', async () => {
    const homes = await allHomes({ market, sort_by: 'rating_desc' });
    const firstUnrated = homes.findIndex((h) => h.property === undefined);
    expect(firstUnrated).toBeGreaterThan(0);
    expect(homes.slice(firstUnrated).every((h) => h.property === undefined)).toBe(true);
    const ratings = homes.slice(0, firstUnrated).map((h) => h.property.member_rating.average);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });

  it('pages of 25 by default, at most 40, 1-indexed; past the last page an empty page with the totals', async () => {
    const first = (await get(`market=${market}`)).body;
    expect(first).toMatchObject({ page: 1, per_page: 25, total_pages: Math.ceil(first.total_count / 25) });
    expect(first.homes).toHaveLength(Math.min(25, first.total_count));
    const big = (await get(`market=${market}&per_page=100`)).body;
    expect(big.per_page).toBe(40);
    expect(big.homes).toHaveLength(Math.min(40, big.total_count));
    const past = (await get(`market=${market}&page=${first.total_pages + 1}`)).body;
    expect(past).toMatchObject({ total_count: first.total_count, count: 0, homes: [] });
    expect((await get(`market=${market}&page=0`)).status).toBe(400);
    expect((await get(`market=${market}&page=2501`)).status).toBe(400);
  });
});

describe('result fields (the contract: search_apartments_tool)', () => {
  it('one-entry media with hero and widget variants, Flex tiers for eligible homes, the rating only when rated', async () => {
    const homes = await allHomes({ market, start_date: d(30), end_date: d(90) });
    const byId = new Map(world.homes.map((m) => [m.home.slug, m]));
    let rated = 0;
    let photoless = 0;
    for (const h of homes) {
      const { home, property } = byId.get(h.slug)!;
      const hero = home.photos[0] ? { id: home.photos[0].id, source: 'unit' } : property.photos[0] ? { id: property.photos[0].id, source: 'property' } : null;
      if (hero) {
        expect(h.media).toEqual([{ url: h.hero_image_url, widget_url: h.widget_hero_image_url, type: 'photo', source: hero.source, position: 0 }]);
        expect(h.hero_image_url).toMatch(new RegExp(`/media/${hero.id}\\.jpg$`));
        expect(h.widget_hero_image_url).toMatch(new RegExp(`/media/${hero.id}-800\\.jpg$`));
      } else {
        photoless += 1;
        expect(h.media).toEqual([]);
        expect(h.hero_image_url).toBeUndefined();
        expect(h.widget_hero_image_url).toBeUndefined();
      }
      const tiers = offeredTiers(home);
      expect(h.eligible_for_flex).toBe(tiers.length > 0);
      if (tiers.length > 0) {
        expect(h.flex_options).toEqual(
          tiers.map((t) => {
            const p = displayPrice(home, { kind: 'flex', start_date: d(30), committed_nights: t.committed_nights });
            return { committed_nights: t.committed_nights, display_price_with_discount: p.display_price_with_discount, display_price_label: p.display_price_label };
          }),
        );
      } else expect(h.flex_options).toBeUndefined();
      if (property.rating) {
        rated += 1;
        expect(h.property).toEqual({ member_rating: { average: property.rating.average, count: property.rating.count } });
      } else expect(h.property).toBeUndefined();
      expect(h.price_note).toBe('Includes all fees except taxes.');
      expect(h).toMatchObject({ is_price_monthly: true, is_price_nightly: false, duration_label: '/mo' });
    }
    expect(rated).toBeGreaterThan(0);
    expect(rated).toBeLessThan(homes.length);
    void photoless;
  });

  it('flex_search_url appears exactly when a result on the page is Flex-eligible', async () => {
    const withFlex = (await get(`market=${market}&check_in=${d(14)}&check_out=indefinite`)).body;
    expect(withFlex.flex_search_url).toContain(`location=${market}`);
    expect(withFlex.flex_search_url).toContain('end_date=indefinite');
    // A building's homes of one bedroom count, none of them Flex-eligible: a page without Flex.
    const lone = world.homes.find((m) => {
      const args = { market: m.market.slug, near_latitude: m.property.latitude, near_longitude: m.property.longitude, near_radius_miles: 0.01, min_bedrooms: m.home.bedrooms, max_bedrooms: m.home.bedrooms };
      const found = expectedResults(world, args);
      return found.length > 0 && found.every((r) => offeredTiers(r.m.home).length === 0);
    })!;
    const q = `market=${lone.market.slug}&near_latitude=${lone.property.latitude}&near_longitude=${lone.property.longitude}&near_radius_miles=0.01&bedrooms=${lone.home.bedrooms}&max_bedrooms=${lone.home.bedrooms}`;
    const without = (await get(q)).body;
    expect(without.total_count).toBeGreaterThan(0);
    expect(without.flex_search_url).toBeUndefined();
  });
});

describe('embedded hero photos (rule 6)', () => {
  it('up to 5 of the page as image content with _meta.home_slug, in page order; none with include_hero_images false', async () => {
    for (const per_page of [3, 40]) {
      const res = await call('search_apartments_tool', { market, per_page });
      const homes = (res.structuredContent as Home).homes as Home[];
      const images = (res.content as Array<{ type: string; data?: string; mimeType?: string; _meta?: { home_slug: string } }>).filter((c) => c.type === 'image');
      const withPhoto = homes.filter((h) => h.media.length > 0).slice(0, 5);
      expect(images.map((i) => i._meta?.home_slug)).toEqual(withPhoto.map((h) => h.slug));
      expect(images.length).toBeLessThanOrEqual(5);
      for (const img of images) {
        expect(img.mimeType).toBe('image/jpeg');
        // Small enough for agent clients (MCP hosts cap a result near 1 MiB): the 800 px variant, well under 100 KB each.
        expect(Buffer.from(img.data!, 'base64').length).toBeLessThan(100_000);
      }
    }
    const off = await call('search_apartments_tool', { market, include_hero_images: false });
    expect((off.content as Array<{ type: string }>).filter((c) => c.type === 'image')).toEqual([]);
  });
});
