/**
 * Facet counts (docs/contract.md, "Facets"), randomized on a generated world over real HTTP and the real
 * tool server: for many searches (every kind of stay, filters already set, price limits in either unit,
 * a radius), each facet count is the total_count of the search it stands for, asked separately; the
 * bedroom and price counts add up to the total without their own bounds (the price's in either unit,
 * whatever unit the price is shown in); the map's facets are the list's.
 */
import { mulberry32 } from '../../stack/demo/prng';
import { startFixture, type Fixture } from '../support/fixture';
import { loadWorld, type ModelArgs, type World } from '../support/search-model';
import { FLAGS, randomSearch, searchQuery } from './shared/random-search';
import { polygonText, starPolygon } from '../support/polygons';

let fx: Fixture;
let world: World;

beforeAll(async () => {
  fx = await startFixture({ homes: 1_200, seed: 23 });
  world = await loadWorld(fx.mongo.collections, fx.today);
}, 300_000);

afterAll(async () => {
  await fx?.close();
});

interface Facets {
  filters: Array<{ filter: string; count: number }>;
  bedrooms: Array<{ bedrooms: number; count: number }>;
  guest_rating: Array<{ guest_rating: 'EXCELLENT' | 'VERY_GOOD' | 'GOOD'; count: number }>;
  price: { unit: string; buckets: Array<{ min: number; max: number; count: number }> };
}

async function search(args: ModelArgs, facets = false): Promise<{ total_count: number; facets?: Facets }> {
  const res = await fx.get(`/api/public/search?${searchQuery(args, 1, 1)}${facets ? '&facets=true' : ''}`);
  expect({ args, status: res.status, error: res.status === 200 ? undefined : res.body }).toEqual({ args, status: 200, error: undefined });
  return res.body as { total_count: number; facets?: Facets };
}

const total = async (args: ModelArgs): Promise<number> => (await search(args)).total_count;

/** The arguments without some of them. */
function without(args: ModelArgs, ...keys: string[]): ModelArgs {
  const rest = { ...args };
  for (const k of keys) delete rest[k];
  return rest;
}

/** The unit the search shows its prices in: per night for a fixed stay under 30 nights, per month otherwise. */
function shownUnit(args: ModelArgs): 'per_night' | 'per_month' {
  const fixed = typeof args.end_date === 'string' && args.end_date !== 'indefinite';
  return fixed && (Date.parse(args.end_date as string) - Date.parse(args.start_date as string)) / 86_400_000 < 30 ? 'per_night' : 'per_month';
}

describe('facets: every count is the total_count of the search it stands for', () => {
  const CASES = Number(process.env.FACET_CASES ?? 24);

  it(`holds over ${CASES} random searches, for every filter, bedroom count, rating bucket and price bucket`, async () => {
    const rnd = mulberry32(20261127);
    let buckets = 0;
    for (let i = 0; i < CASES; i++) {
      const args = randomSearch(world, rnd);
      // A reversed bedroom range is refused (a mistake to say): the facets are of searches that answer.
      if ((args.min_bedrooms as number) > (args.max_bedrooms as number)) delete args.max_bedrooms;
      const label = JSON.stringify(args);
      const answer = await search(args, true);
      const facets = answer.facets!;
      expect(facets.filters.map((f) => f.filter)).toEqual(FLAGS);
      for (const f of facets.filters)
        expect({ label, filter: f.filter, count: f.count }).toEqual({ label, filter: f.filter, count: await total({ ...args, [f.filter]: true }) });

      const unbedded = without(args, 'min_bedrooms', 'max_bedrooms');
      for (const b of facets.bedrooms) {
        expect(b.count).toBeGreaterThan(0);
        expect({ label, bedrooms: b.bedrooms, count: b.count }).toEqual({
          label,
          bedrooms: b.bedrooms,
          count: await total({ ...unbedded, min_bedrooms: b.bedrooms, max_bedrooms: b.bedrooms }),
        });
      }
      expect(facets.bedrooms.map((b) => b.bedrooms)).toEqual([...facets.bedrooms.map((b) => b.bedrooms)].sort((a, b) => a - b));
      expect({ label, sum: facets.bedrooms.reduce((n, b) => n + b.count, 0) }).toEqual({ label, sum: await total(unbedded) });

      const unrated = without(args, 'min_rating', 'guest_rating');
      expect(facets.guest_rating.map((g) => g.guest_rating)).toEqual(['EXCELLENT', 'VERY_GOOD', 'GOOD']);
      for (const g of facets.guest_rating)
        expect({ label, bucket: g.guest_rating, count: g.count }).toEqual({
          label,
          bucket: g.guest_rating,
          count: await total({ ...unrated, guest_rating: g.guest_rating }),
        });

      const unpriced = without(args, 'min_price', 'max_price');
      expect(facets.price.unit).toBe((args.price_unit as string | undefined) ?? shownUnit(args));
      let previous = -1;
      for (const b of facets.price.buckets) {
        expect(b.min).toBeGreaterThan(previous);
        expect(b.max).toBeGreaterThanOrEqual(b.min);
        previous = b.max;
        expect({ label, bucket: [b.min, b.max], count: b.count }).toEqual({
          label,
          bucket: [b.min, b.max],
          count: await total({ ...unpriced, min_price: b.min, max_price: b.max }),
        });
        buckets += 1;
      }
      expect({ label, sum: facets.price.buckets.reduce((n, b) => n + b.count, 0) }).toEqual({ label, sum: await total(unpriced) });
    }
    expect(buckets).toBeGreaterThan(CASES * 2);
  }, 900_000);

  it('are absent unless asked for, and the same on the tool server and on the map', async () => {
    const market = world.markets[0].slug;
    const start = world.today;
    const args: ModelArgs = { market, start_date: start, end_date: addNights(start, 40), parking: true };
    expect((await search(args)).facets).toBeUndefined();
    const viaGet = (await search(args, true)).facets;
    const client = await fx.mcp();
    for (const name of ['search_apartments_tool', 'search_apartments_on_map']) {
      const res = await client.callTool({ name, arguments: { ...args, facets: true } });
      expect({ name, facets: (res.structuredContent as { facets: Facets }).facets }).toEqual({ name, facets: viaGet });
    }
  }, 120_000);
});

describe('price facets: the buckets hold every home, in either unit', () => {
  const CASES = Number(process.env.FACET_CASES ?? 24);

  it.each(['per_night', 'per_month'] as const)(
    `add up to the total_count without price limits with price_unit=%s, over ${CASES} random searches of every kind of stay`,
    async (unit) => {
      const rnd = mulberry32(unit === 'per_night' ? 20261129 : 20261130);
      const shown = new Set<string>();
      for (let i = 0; i < CASES; i++) {
        const args: ModelArgs = { ...randomSearch(world, rnd), price_unit: unit };
        if ((args.min_bedrooms as number) > (args.max_bedrooms as number)) delete args.max_bedrooms;
        const label = JSON.stringify(args);
        const { facets } = await search(args, true);
        expect(facets!.price.unit).toBe(unit);
        const sum = facets!.price.buckets.reduce((n, b) => n + b.count, 0);
        expect({ label, sum }).toEqual({ label, sum: await total(without(args, 'min_price', 'max_price')) });
        if (sum > 0) shown.add(shownUnit(args));
      }
      // Both the search's own unit and the other were counted (a nightly unit against monthly prices, and the reverse).
      expect([...shown].sort()).toEqual(['per_month', 'per_night']);
    },
    900_000,
  );
});

describe('facets inside a drawn shape', () => {
  it('count only the homes inside the polygon, each count the total_count of its search there', async () => {
    const rnd = mulberry32(5);
    const h = world.homes[Math.floor(rnd() * world.homes.length)];
    const shape = polygonText(starPolygon(rnd, { latitude: h.property.latitude, longitude: h.property.longitude }, 0.08, 12));
    const get = async (extra: string) => {
      const res = await fx.get(`/api/public/search?polygon=${encodeURIComponent(shape)}&per_page=1${extra}`);
      expect(res.status).toBe(200);
      return res.body as { total_count: number; facets: Facets };
    };
    const { total_count, facets } = await get('&facets=true');
    expect(total_count).toBeGreaterThan(0);
    expect(facets.bedrooms.reduce((n, b) => n + b.count, 0)).toBe(total_count);
    for (const f of facets.filters)
      expect({ filter: f.filter, count: f.count }).toEqual({ filter: f.filter, count: (await get(`&${f.filter}=true`)).total_count });
    for (const b of facets.price.buckets) expect(b.count).toBe((await get(`&min_price=${b.min}&max_price=${b.max}`)).total_count);
  }, 120_000);
});

function addNights(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
