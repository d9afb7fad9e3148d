/**
 * Randomized consistency of the apartment search (docs/contract.md, "Prices") on a generated world, over
 * real HTTP and the real tool server: for many (location, dates, filters, limits, sort) searches,
 * the homes over all pages are exactly those the naive model (the stay engine over every home of
 * the place) finds; each shows its engine price; pages never overlap; the order holds; the map's
 * pins are the first 250 of the list. Radius searches are held to the haversine circle.
 */
import { mulberry32 } from '../../stack/demo/prng';
import { addDays } from '../../services/kernel/engine/dates';
import { startFixture, type Fixture } from '../support/fixture';
import { expectedResults, loadWorld, orderedPair, type ModelArgs, type ModelResult, type World } from '../support/search-model';
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

const FLAGS = [
  'pets',
  'cats',
  'dogs',
  'parking',
  'pool',
  'gym',
  'in_unit_laundry',
  'air_conditioned',
  'balcony',
  'elevator',
  'first_floor_unit',
  'self_check_in',
  'deals_only',
];
const SORTS = ['price_asc', 'price_desc', 'availability', 'newest', 'rating_desc'];

/**
 * A display city as the GET search can ask for it: GET has no `scope` and sends the slug as `market`, so a
 * city whose slug also names its market (denver, the city, in denver, the market) is the whole market there.
 */
function displayCity(slug: string): ModelArgs {
  return world.markets.some((m) => m.slug === slug) ? { market: slug } : { scope: { display_city: slug } };
}

/** A random search; price limits are drawn from the prices the model finds, so they cut. */
function randomSearch(rnd: () => number): ModelArgs {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const market = pick(world.markets);
  const args: ModelArgs = rnd() < 0.5 ? { market: market.slug } : rnd() < 0.5 ? { market: pick(market.cities).slug } : displayCity(pick(market.cities).slug);
  const start = addDays(world.today, int(0, 240));
  const kind = pick(['undated', 'start_only', 'short', 'long', 'long', 'flex_tier', 'flex_any']);
  if (kind === 'start_only') args.start_date = start;
  if (kind === 'short' || kind === 'long') Object.assign(args, { start_date: start, end_date: addDays(start, kind === 'short' ? int(1, 29) : int(30, 200)) });
  if (kind === 'flex_tier') Object.assign(args, { start_date: start, end_date: 'indefinite', committed_nights: pick([180, 270, 365]) });
  if (kind === 'flex_any') Object.assign(args, { start_date: start, end_date: 'indefinite' });
  for (let i = int(0, 3); i > 0; i--) args[pick(FLAGS)] = true;
  if (rnd() < 0.3) args.min_bedrooms = int(0, 2);
  if (rnd() < 0.2) args.max_bedrooms = int(1, 3);
  if (rnd() < 0.15) args.min_bathrooms = pick([1, 1.5, 2]);
  if (rnd() < 0.15) args.min_rating = pick([3.2, 3.9, 4.4]);
  if (rnd() < 0.15) args.guest_rating = pick(['GOOD', 'VERY_GOOD', 'EXCELLENT'] as const);
  if (rnd() < 0.2) {
    const h = pick(world.homes);
    Object.assign(args, { near_latitude: h.property.latitude, near_longitude: h.property.longitude, near_radius_miles: pick([0.5, 1, 2.5, 5, 8]) });
  }
  if (rnd() < 0.6) {
    const prices = expectedResults(world, args, { ignorePrice: true })
      .map((r) => r.price.display_price_with_discount)
      .sort((a, b) => a - b);
    if (prices.length > 0) {
      // A quantile of the prices, often a home's exact price give or take a dollar: limits at the edge of a band.
      const at = (q: number) => prices[Math.min(prices.length - 1, Math.floor(q * prices.length))] + (rnd() < 0.6 ? int(-2, 2) : 0);
      const monthly = expectedResults(world, args, { ignorePrice: true })[0]?.price.is_price_monthly ?? true;
      // Sometimes the limit in the other unit (price_unit), converted as the service converts it.
      const other = rnd() < 0.25;
      const unit = other ? (monthly ? 'per_night' : 'per_month') : undefined;
      const conv = (v: number) => (unit === undefined ? v : unit === 'per_night' ? Math.round(v / 30) : v * 30);
      if (rnd() < 0.7) args.max_price = conv(at(0.2 + 0.6 * rnd()));
      if (rnd() < 0.4) args.min_price = Math.min(conv(at(0.4 * rnd())), (args.max_price as number | undefined) ?? Infinity);
      if (unit) args.price_unit = unit;
    }
  }
  if (rnd() < 0.8) args.sort_by = pick(SORTS);
  return args;
}

function query(args: ModelArgs, page: number, perPage: number): string {
  const q = new URLSearchParams();
  const names: Record<string, string> = { start_date: 'check_in', end_date: 'check_out', min_bedrooms: 'bedrooms' };
  for (const [k, v] of Object.entries(args)) {
    if (k === 'scope') q.set('market', (v as { display_city: string }).display_city);
    else q.set(names[k] ?? k, String(v));
  }
  q.set('page', String(page));
  q.set('per_page', String(perPage));
  return q.toString();
}

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
  const first = await fx.get(`/api/public/search?${query(args, 1, perPage)}`);
  expect(first.status).toBe(200);
  pages.push(first.body.homes);
  for (let page = 2; page <= first.body.total_pages; page++) {
    const res = await fx.get(`/api/public/search?${query(args, page, perPage)}`);
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
    for (let i = 0; i < CASES; i++) {
      const args = randomSearch(rnd);
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
      const client = await fx.mcp();
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
