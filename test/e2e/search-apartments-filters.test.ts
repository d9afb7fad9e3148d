/**
 * search_apartments_tool (GET /api/public/search): price limits and price_unit (rule 2) and the shared
 * filters (docs/contract.md, "Filters"), over real HTTP and the SDK's MCP client on a generated world (test/e2e/shared/search-apartments.ts).
 * Expected homes come from the naive model (the stay engine over the records).
 */
import { FLAGS } from './shared/random-search';
import { addDays } from '../../services/kernel/engine/dates';
import type { Fixture } from '../support/fixture';
import { expectedResults, type ModelArgs, type World } from '../support/search-model';
import { searchCalls, slugsOf, startSearchWorld } from './shared/search-apartments';

let fx: Fixture;
let world: World;
let market: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  ({ fx, world, market } = await startSearchWorld());
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

const { get, call, errorOf, allHomes } = searchCalls(() => fx);

describe('price limits and price_unit (rule 2)', () => {
  it('compares a short stay per night and a long one per month by default; price_unit converts by 30', async () => {
    const short = { market, start_date: d(21), end_date: d(26) };
    const prices = expectedResults(world, short)
      .map((r) => r.price.display_price_with_discount)
      .sort((a, b) => a - b);
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
  const flags = FLAGS;

  it.each(flags)('%s=true keeps exactly the homes that have it', async (flag) => {
    const args = { market, [flag]: true };
    const expected = expectedResults(world, args);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(expectedResults(world, { market }).length);
    expect(slugsOf(await allHomes(args))).toEqual(slugsOf(expected));
  });

  it('bounds bedrooms (0 = studio) and bathrooms', async () => {
    for (const args of [
      { market, max_bedrooms: 0 },
      { market, min_bedrooms: 2, max_bedrooms: 3 },
      { market, min_bathrooms: 2 },
    ]) {
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
      for (const h of homes)
        expect(h.property.member_rating.average).toBeGreaterThanOrEqual(
          Math.max(args.min_rating ?? 0, { EXCELLENT: 4.5, VERY_GOOD: 4, GOOD: 3.5 }[args.guest_rating!]),
        );
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
