/**
 * Randomized consistency of the apartment search (docs/contract.md, "Prices") on a generated world, over
 * real HTTP and the real tool server: for many (location, dates, filters, limits, sort) searches,
 * the homes over all pages are exactly those the naive model (the stay engine over every home of
 * the place) finds; each shows its engine price; pages never overlap; the order holds; the map's
 * pins are the first 250 of the list. Radius searches are held to the haversine circle.
 */
import { mulberry32 } from '../../stack/demo/prng';
import { startFixture, type Fixture } from '../support/fixture';
import { expectedResults, loadWorld, orderedPair, type ModelArgs, type ModelResult, type World } from '../support/search-model';
import { randomSearch, searchQuery } from './shared/random-search';
import { haversineMiles } from '../../services/search/shared/distance';

let fx: Fixture;
let world: World;

beforeAll(async () => {
  // Enough homes that the biggest market passes the map's 250 pins.
  fx = await startFixture({ homes: 2_400, seed: 11 });
  world = await loadWorld(fx.mongo.collections, fx.today);
}, 300_000);

afterAll(async () => {
  await fx?.close();
});

async function allPages(args: ModelArgs, perPage: number) {
  const pages: Array<
    {
      slug: string;
      display_price_with_discount: number;
      display_price_without_discount: number;
      is_price_monthly: boolean;
      home_url: string;
      latitude: number;
      longitude: number;
    }[]
  > = [];
  const first = await fx.get(`/api/public/search?${searchQuery(args, 1, perPage)}`);
  expect(first.status).toBe(200);
  pages.push(first.body.homes);
  for (let page = 2; page <= first.body.total_pages; page++) {
    const res = await fx.get(`/api/public/search?${searchQuery(args, page, perPage)}`);
    expect(res.status).toBe(200);
    expect(res.body.total_count).toBe(first.body.total_count);
    pages.push(res.body.homes);
  }
  return { first: first.body, pages, homes: pages.flat() };
}

describe('search_apartments_tool: randomized consistency with the stay engine', () => {
  const CASES = Number(process.env.SEARCH_CASES ?? 100);
  const seed = Number(process.env.SEARCH_SEED ?? 20261122);

  it(`answers ${CASES} random searches exactly as the naive model does (seed ${seed})`, async () => {
    const rnd = mulberry32(seed);
    let compared = 0;
    let quoted = 0;
    const client = await fx.mcp();
    for (let i = 0; i < CASES; i++) {
      const args = randomSearch(world, rnd);
      const label = `case ${i}: ${JSON.stringify(args)}`;
      const expected = expectedResults(world, args);
      const bySlug = new Map<string, ModelResult>(expected.map((r) => [r.slug, r]));
      const perPage = [7, 25, 40][i % 3];
      const { first, pages, homes } = await allPages(args, perPage);

      // total_count is the number of results over all pages; pages never overlap.
      expect({ label, total: first.total_count }).toEqual({ label, total: expected.length });
      expect(first.total_pages).toBe(Math.ceil(expected.length / perPage));
      const slugs = homes.map((h) => h.slug);
      expect(new Set(slugs).size).toBe(slugs.length);
      // No home that fits is missing, none that does not is there.
      expect({ label, slugs: [...slugs].sort() }).toEqual({ label, slugs: [...bySlug.keys()].sort() });
      for (const p of pages.slice(0, -1)) expect(p.length).toBe(perPage);

      // Each result shows the engine's price for its stay; the order holds.
      const sort = (args.sort_by as string | undefined) ?? 'price_asc';
      for (let k = 0; k < homes.length; k++) {
        const model = bySlug.get(homes[k].slug)!;
        expect({
          label,
          slug: homes[k].slug,
          price: homes[k].display_price_with_discount,
          before: homes[k].display_price_without_discount,
          monthly: homes[k].is_price_monthly,
        }).toEqual({
          label,
          slug: model.slug,
          price: model.price.display_price_with_discount,
          before: model.price.display_price_without_discount,
          monthly: model.price.is_price_monthly,
        });
        if (k > 0)
          expect({ label, at: k, ordered: orderedPair(sort, bySlug.get(homes[k - 1].slug)!, model, world.today) }).toEqual({ label, at: k, ordered: true });
        compared += 1;
      }

      // The quote for the first result's dates gives the same display price.
      if (homes.length > 0 && typeof args.start_date === 'string' && typeof args.end_date === 'string') {
        const url = new URL(homes[0].home_url);
        const stay = bySlug.get(homes[0].slug)!.stay;
        const tier = stay.kind === 'flex' ? `&committed_nights=${stay.committed_nights}` : '';
        const q = await fx.get(
          `/api/public/homes/${homes[0].slug}/quote?check_in=${url.searchParams.get('start_date')}&check_out=${url.searchParams.get('end_date')}${tier}`,
        );
        expect({ label, available: q.body.available, price: q.body.display_price_with_discount }).toEqual({
          label,
          available: true,
          price: homes[0].display_price_with_discount,
        });
        quoted += 1;
      }

      // The map's pins are the first 250 of the list order, with the same fields.
      const mapArgs = { ...args } as Record<string, unknown>;
      const map = (await client.callTool({ name: 'search_apartments_on_map', arguments: mapArgs })).structuredContent as {
        total_count: number;
        homes: Array<{ slug: string }>;
      };
      expect({ label, total: map.total_count }).toEqual({ label, total: expected.length });
      expect({ label, pins: map.homes.map((h) => h.slug) }).toEqual({ label, pins: slugs.slice(0, 250) });
    }
    expect(compared).toBeGreaterThan(CASES * 2);
    expect(quoted).toBeGreaterThan(CASES / 10);
  }, 900_000);
});

describe('search_apartments_on_map: at most 250 pins', () => {
  it('plots the first 250 of the search order when more match, and counts them all', async () => {
    const counts = new Map<string, number>();
    for (const r of world.homes) counts.set(r.home.market_slug, (counts.get(r.home.market_slug) ?? 0) + 1);
    const biggest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    const args = { market: biggest, sort_by: 'newest' };
    const expected = expectedResults(world, args);
    expect(expected.length).toBeGreaterThan(250);
    const client = await fx.mcp();
    const map = (await client.callTool({ name: 'search_apartments_on_map', arguments: args })).structuredContent as {
      total_count: number;
      count: number;
      homes: Array<{ slug: string }>;
    };
    expect(map.total_count).toBe(expected.length);
    expect(map.count).toBe(250);
    const { homes } = await allPages(args, 40);
    expect(map.homes.map((h) => h.slug)).toEqual(homes.slice(0, 250).map((h) => h.slug));
  }, 120_000);
});

describe('radius searches: a true circle', () => {
  it('returns every home within the radius by haversine and none outside, for many points and radii', async () => {
    const rnd = mulberry32(7);
    for (let i = 0; i < 25; i++) {
      const h = world.homes[Math.floor(rnd() * world.homes.length)];
      const radius = [0.3, 1, 2, 5, 12][i % 5];
      const args: ModelArgs = {
        market: h.market.slug,
        near_latitude: h.property.latitude + (rnd() - 0.5) * 0.02,
        near_longitude: h.property.longitude + (rnd() - 0.5) * 0.02,
      };
      if (i % 2 === 0) args.near_radius_miles = radius;
      const center = { lat: args.near_latitude as number, lon: args.near_longitude as number };
      const r = (args.near_radius_miles as number | undefined) ?? 5;
      const { first, homes } = await allPages(args, 40);
      for (const home of homes) expect(haversineMiles(center, { lat: home.latitude, lon: home.longitude })).toBeLessThanOrEqual(r * (1 + 1e-6) + 1e-4);
      // Nothing inside is missing (homes within a meter of the circle may fall either way).
      const inside = expectedResults(world, { ...args, near_radius_miles: r * (1 - 1e-6) - 1e-4 }).map((x) => x.slug);
      const got = new Set(homes.map((x) => x.slug));
      expect(inside.filter((s) => !got.has(s))).toEqual([]);
      expect(first.near).toEqual({ latitude: center.lat, longitude: center.lon, radius_miles: r });
    }
  }, 300_000);
});
