/**
 * availability_overview_tool through the SDK's MCP client on generated homes in the real stores
 * (docs/contract.md, "availability_overview_tool", "Location").
 * Expected sets come from the indexed documents; windows and ranges from the apartment read.
 */
import { startFixture, type Fixture } from '../support/fixture';
import { indexedHomes } from '../support/indexed';
import type { HomeDocument } from '../../services/kernel/store/home-document';
import { FLAG_FIELDS } from '../../services/search/shared/filters';
import { haversineMiles } from '../../services/search/shared/distance';
import { overviewWindows } from '../../services/kernel/engine/overview-windows';

let fx: Fixture;
let docs: HomeDocument[];
let marketSlug: string;
let citySlug: string;

beforeAll(async () => {
  fx = await startFixture({ homes: 240 });
  ({ docs, marketSlug, citySlug } = await indexedHomes(fx));
});

afterAll(async () => {
  await fx?.close();
});

type Overview = {
  market: { slug: string };
  display_city: { slug: string } | null;
  page: number;
  per_page: number;
  count: number;
  total_count: number;
  total_pages: number;
  homes: Array<{ sl: string; n: string; bd: number; ba: number; sf: number; ct: string; u: string; av: any }>;
};

async function overview(args: Record<string, unknown>, fixture: Fixture = fx) {
  const client = await fixture.mcp();
  return client.callTool({ name: 'availability_overview_tool', arguments: args });
}

async function ok(args: Record<string, unknown>): Promise<Overview> {
  const result = await overview(args);
  expect(result.isError).toBeFalsy();
  return result.structuredContent as Overview;
}

function errorCode(result: Awaited<ReturnType<typeof overview>>): string {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0].text).error.code;
}

const inMarket = () => docs.filter((d) => d.market_slug === marketSlug);

describe('availability_overview_tool', () => {
  it('answers in the compact keys, 50 per page by default, capped at 250', async () => {
    const body = await ok({ market: marketSlug });
    expect(Object.keys(body).sort()).toEqual(['count', 'display_city', 'homes', 'market', 'page', 'per_page', 'total_count', 'total_pages']);
    expect(body.per_page).toBe(50);
    expect(body.count).toBe(body.homes.length);
    for (const h of body.homes) {
      expect(Object.keys(h).sort()).toEqual(['av', 'ba', 'bd', 'ct', 'n', 'sf', 'sl', 'u']);
      expect(h.av.r).toBeUndefined();
    }
    expect((await ok({ market: marketSlug, per_page: 1000 })).per_page).toBe(250);
  });

  it('counts every apartment of the market exactly, and its pages never overlap and cover them all', async () => {
    const first = await ok({ market: marketSlug, per_page: 7 });
    expect(first.total_count).toBe(inMarket().length);
    expect(first.total_pages).toBe(Math.ceil(first.total_count / 7));
    const seen: string[] = [];
    for (let page = 1; page <= first.total_pages; page++) seen.push(...(await ok({ market: marketSlug, per_page: 7, page })).homes.map((h) => h.sl));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(
      inMarket()
        .map((d) => d.slug)
        .sort(),
    );
  });

  it('keeps exactly the apartments whose minimum stay fits `nights`, and whose base rate fits the price bounds', async () => {
    const nights = 30;
    const byNights = await ok({ market: marketSlug, nights, per_page: 250 });
    expect(byNights.homes.map((h) => h.sl).sort()).toEqual(
      inMarket()
        .filter((d) => d.minimum_nightly_stay <= nights)
        .map((d) => d.slug)
        .sort(),
    );
    for (const h of byNights.homes) expect(h.av.ms).toBeLessThanOrEqual(nights);
    const rates = inMarket()
      .map((d) => d.monthly_rate)
      .sort((a, b) => a - b);
    const [lo, hi] = [rates[Math.floor(rates.length / 4)], rates[Math.floor((3 * rates.length) / 4)]];
    const byPrice = await ok({ market: marketSlug, min_price: lo, max_price: hi, per_page: 250 });
    expect(byPrice.homes.map((h) => h.sl).sort()).toEqual(
      inMarket()
        .filter((d) => d.monthly_rate >= lo && d.monthly_rate <= hi)
        .map((d) => d.slug)
        .sort(),
    );
  });

  it('gives each apartment the windows of its calendar that can host a stay, minimums only when stricter, and never a past date', async () => {
    const body = await ok({ market: marketSlug, per_page: 250 });
    for (const h of body.homes) {
      const read = (await fx.get(`/api/public/homes/${h.sl}`)).body;
      // "Windows shorter than their own minimum are omitted": the engine's one rule (unit-tested in
      // test/unit/engine/overview-windows.test.ts), over the calendar the apartment read shows.
      const expected = overviewWindows(read.availability.bookable_windows, h.av.ms);
      expect(h.av.w).toEqual(expected);
      for (const w of h.av.w) if (w.n !== undefined) expect(w.n).toBeGreaterThanOrEqual(w.ms ?? h.av.ms);
      if (h.av.ed !== undefined) expect(h.av.ed >= fx.today).toBe(true);
      expect(h.u).toContain(`/homes/${h.sl}`);
    }
  });

  it('adds the raw ranges only with include_ranges, the same as the apartment read', async () => {
    const body = await ok({ market: marketSlug, per_page: 5, include_ranges: true });
    for (const h of body.homes) {
      const read = (await fx.get(`/api/public/homes/${h.sl}`)).body;
      expect(h.av.r).toEqual(read.availability.ranges);
    }
  });

  it('sorts by base rate, and puts unrated apartments last under rating_desc', async () => {
    const asc = await ok({ market: marketSlug, sort_by: 'price_asc', per_page: 250 });
    const rate = new Map(docs.map((d) => [d.slug, d]));
    const rates = asc.homes.map((h) => rate.get(h.sl)!.monthly_rate);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
    const byRating = await ok({ market: marketSlug, sort_by: 'rating_desc', per_page: 250 });
    const ratings = byRating.homes.map((h) => rate.get(h.sl)!.rating_average);
    const firstUnrated = ratings.indexOf(null);
    if (firstUnrated >= 0) expect(ratings.slice(firstUnrated).every((r) => r === null)).toBe(true);
    const rated = ratings.filter((r): r is number => r !== null);
    expect(rated).toEqual([...rated].sort((a, b) => b - a));
  });

  it.each(Object.entries(FLAG_FIELDS))('takes the shared filter %s=true: exactly the apartments that have it', async (arg, field) => {
    const body = await ok({ market: marketSlug, [arg]: true, per_page: 250 });
    const expected = inMarket()
      .filter((d) => (d as unknown as Record<string, unknown>)[field] === true)
      .map((d) => d.slug)
      .sort();
    expect(body.homes.map((h) => h.sl).sort()).toEqual(expected);
    expect(body.total_count).toBe(expected.length);
  });

  it('takes bedrooms, bathrooms and a true circle around a point', async () => {
    const beds = await ok({ market: marketSlug, min_bedrooms: 1, max_bedrooms: 2, min_bathrooms: 1.5, per_page: 250 });
    expect(beds.homes.map((h) => h.sl).sort()).toEqual(
      inMarket()
        .filter((d) => d.bedrooms >= 1 && d.bedrooms <= 2 && d.bathrooms >= 1.5)
        .map((d) => d.slug)
        .sort(),
    );
    const center = inMarket()[0].location;
    const near = await ok({ market: marketSlug, near_latitude: center.lat, near_longitude: center.lon, near_radius_miles: 2, per_page: 250 });
    const expected = inMarket()
      .filter((d) => haversineMiles(center, d.location) <= 2 - 1e-6)
      .map((d) => d.slug);
    const got = near.homes.map((h) => h.sl);
    // Points within a hair of the edge may go either way (ES arc distance vs haversine): everything clearly inside is there, nothing clearly outside.
    for (const slug of expected) expect(got).toContain(slug);
    for (const slug of got) expect(haversineMiles(center, docs.find((d) => d.slug === slug)!.location)).toBeLessThanOrEqual(2 + 1e-3);
  });

  it('sorts by earliest move-in (the default), newest and price_desc, every order ending on the apartment id', async () => {
    const bySlug = new Map(docs.map((d) => [d.slug, d]));
    const byDefault = await ok({ market: marketSlug, per_page: 250 });
    const dates = byDefault.homes.map((h) => bySlug.get(h.sl)!.earliest_available_date ?? '9999-12-31');
    expect(dates).toEqual([...dates].sort());
    const newest = await ok({ market: marketSlug, sort_by: 'newest', per_page: 250 });
    const created = newest.homes.map((h) => bySlug.get(h.sl)!.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const desc = await ok({ market: marketSlug, sort_by: 'price_desc', per_page: 250 });
    const rates = desc.homes.map((h) => bySlug.get(h.sl)!.monthly_rate);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
  });

  it('narrows to a display city with scope.display_city, which wins over market, and echoes it', async () => {
    const other = docs.find((d) => d.market_slug !== marketSlug)!.market_slug;
    const body = await ok({ market: other, scope: { display_city: citySlug }, per_page: 250 });
    expect(body.display_city?.slug).toBe(citySlug);
    expect(body.market.slug).toBe(marketSlug);
    expect(body.homes.map((h) => h.sl).sort()).toEqual(
      docs
        .filter((d) => d.city_slug === citySlug)
        .map((d) => d.slug)
        .sort(),
    );
    expect((await ok({ market: marketSlug })).display_city).toBeNull();
  });

  it('refuses a missing location, an unknown place, a scope naming two places, and date arguments', async () => {
    expect(errorCode(await overview({}))).toBe('invalid_parameters');
    expect(errorCode(await overview({ market: 'atlantis' }))).toBe('market_not_found');
    expect(errorCode(await overview({ scope: { display_city: marketSlug } }))).toBe('market_not_found');
    expect(errorCode(await overview({ scope: { display_city: citySlug, market: marketSlug } }))).toBe('invalid_parameters');
    expect(errorCode(await overview({ market: marketSlug, start_date: fx.today }))).toBe('unknown_parameter');
    expect(errorCode(await overview({ market: marketSlug, check_in: fx.today }))).toBe('unknown_parameter');
    expect(errorCode(await overview({ market: marketSlug, nights: 366 }))).toBe('invalid_parameters');
    expect(errorCode(await overview({ market: marketSlug, max_price: 1e15 }))).toBe('invalid_parameters');
  });

  it('refuses a page reaching past apartment 100,000 (Elasticsearch would refuse it: a 500) with the error object', async () => {
    expect((await ok({ market: marketSlug, page: 400, per_page: 250 })).homes).toEqual([]);
    const past = await overview({ market: marketSlug, page: 401, per_page: 250 });
    expect(errorCode(past)).toBe('invalid_parameters');
    expect(JSON.parse((past.content as Array<{ text: string }>)[0].text).error.message).toMatch(/page × per_page/);
    expect(errorCode(await overview({ market: marketSlug, page: 2_001 }))).toBe('invalid_parameters');
    expect(errorCode(await overview({ market: marketSlug, page: 1e15 }))).toBe('invalid_parameters');
  });
});

describe('availability_overview_tool rate limit', () => {
  let limited: Fixture;

  beforeAll(async () => {
    limited = await startFixture({ homes: 30, env: { RATE_LIMIT_OVERVIEW_POINTS: '2' } });
  });

  afterAll(async () => {
    await limited?.close();
  });

  it('is stricter than the other tools: past its bucket an error result says rate_limited, other tools still answer', async () => {
    const market = (await limited.mongo.collections.markets.findOne({}))!.slug;
    expect((await overview({ market }, limited)).isError).toBeFalsy();
    expect((await overview({ market }, limited)).isError).toBeFalsy();
    const third = await overview({ market }, limited);
    expect(errorCode(third)).toBe('rate_limited');
    expect(JSON.parse((third.content as Array<{ text: string }>)[0].text).error.message).toMatch(/\d+ s|second/);
    const client = await limited.mcp();
    expect((await client.callTool({ name: 'list_markets_tool', arguments: {} })).isError).toBeFalsy();
  });
});
