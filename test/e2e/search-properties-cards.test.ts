/**
 * search_properties_tool (docs/contract.md, "search_properties_tool": the card and its envelope): building
 * cards for undated, fixed and Flex stays, the rating and size filters, its date rules, and random
 * searches, over the SDK's MCP client on a generated world on the real stores
 * (test/e2e/shared/search-properties.ts). Expected units come from the naive model
 * (test/support/search-model.ts: the stay engine over the records), grouped by building.
 */
import { addDays, addYears } from '../../services/kernel/engine/dates';
import type { Fixture } from '../support/fixture';
import type { World } from '../support/search-model';
import { propertySearch, startPropertiesWorld, anchorsSeen } from './shared/search-properties';

let fx: Fixture;
let world: World;
let market: string;
let city: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  ({ fx, world, city, market } = await startPropertiesWorld());
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

const { call, search, errorOf, allCards, expectedUnits, byBuilding, expectCardsMatchModel } = propertySearch(
  () => fx,
  () => world,
);

describe('search_properties_tool', () => {
  it('browses every upcoming unit without dates: building cards grouped exactly as the engine prices them, pages never overlap', async () => {
    const args = { market };
    const { cards, first } = await allCards(args);
    expectCardsMatchModel(cards, first, expectedUnits(args));
    expect(first.page).toBe(1);
    expect(first.per_page).toBe(7);
    expect(first.total_pages).toBe(Math.ceil(first.total_properties / 7));
    for (const c of cards) {
      expect(c.other_dates_count).toBe(0);
      expect(c.distance_miles).toBeNull();
      for (const u of c.units) expect(u.available_from).not.toBeNull();
    }
  });

  it('prices a fixed stay with filters and monthly bounds per unit; units outside the bounds leave the card and the counts; other dates counted', async () => {
    // The world is generated around today: the first move-in from three weeks out at which the model has more
    // than three units inside the bounds, so the search is never checked against an almost empty answer.
    const argsAt = (start: number) => ({ market: city, start_date: d(start), end_date: d(start + 59), min_bedrooms: 1, max_price: 6000, min_price: 1500 });
    const start = Array.from({ length: 60 }, (_, i) => 21 + i).find((n) => expectedUnits(argsAt(n)).length > 3);
    expect(start).toBeDefined();
    const args = argsAt(start!);
    const { cards, first } = await allCards(args);
    const expected = expectedUnits(args);
    // Other dates: the units meeting every filter but the dates, minus those the dates fit.
    const undated = byBuilding(expectedUnits({ market: city, min_bedrooms: 1 }, { ignorePrice: true }));
    const dated = byBuilding(expectedUnits({ ...args }, { ignorePrice: true }));
    const other = new Map([...undated].map(([id, us]) => [id, us.length - (dated.get(id)?.length ?? 0)]));
    expectCardsMatchModel(cards, first, expected, other);
    expect(first.display_city.slug).toBe(city);
    for (const c of cards) for (const u of c.units) expect(u.price >= 1500 && u.price <= 6000).toBe(true);
  });

  it('takes a Flex tier with end_date "indefinite" and refuses "indefinite" without committed_nights', async () => {
    const args = { market, start_date: d(14), end_date: 'indefinite', committed_nights: 180 };
    const { cards, first } = await allCards(args, 50);
    expectCardsMatchModel(cards, first, expectedUnits(args));
    const err = errorOf(await call({ market, start_date: d(14), end_date: 'indefinite' }));
    expect(err.message).toMatch(/committed_nights/);
  });

  it('takes guest_rating as a bucket or a number with min_rating, the highest threshold winning; unrated buildings excluded', async () => {
    for (const [args, threshold] of [
      [{ guest_rating: 'GOOD', min_rating: 4.2 }, 4.2],
      [{ guest_rating: 4.4, min_rating: 3 }, 4.4],
      [{ guest_rating: 'EXCELLENT', min_rating: 4 }, 4.5],
    ] as const) {
      const { cards, first } = await allCards({ market, ...args });
      expectCardsMatchModel(cards, first, expectedUnits({ market, min_rating: threshold }));
      for (const c of cards) expect(c.rating.average).toBeGreaterThanOrEqual(threshold);
    }
  });

  it('keeps units of at least min_square_footage only', async () => {
    const sizes = world.homes.map((h) => h.home.sqft).sort((a, b) => a - b);
    const minSqft = sizes[Math.floor(sizes.length / 2)];
    const { cards, first } = await allCards({ market, min_square_footage: minSqft });
    expectCardsMatchModel(cards, first, expectedUnits({ market }, { minSqft }));
    for (const c of cards) for (const u of c.units) expect(u.sqft).toBeGreaterThanOrEqual(minSqft);
  });

  it('applies its own date rules: start_date at most 365 days ahead, none over 7 days past, end_date at most 3 years ahead, foreign names refused', async () => {
    expect(errorOf(await call({ market, start_date: d(366) })).code).toBe('invalid_date');
    expect(errorOf(await call({ market, start_date: d(-8) })).code).toBe('invalid_date');
    expect(errorOf(await call({ market, start_date: d(30), end_date: addDays(addYears(fx.today, 3), 1) })).code).toBe('invalid_date');
    expect((await search({ market, start_date: d(30), end_date: addYears(fx.today, 3) })).total_homes).toBeGreaterThanOrEqual(0);
    for (const name of ['check_in', 'check_out', 'checkin', 'checkout', 'start', 'end']) {
      expect(errorOf(await call({ market, [name]: d(10) })).code).toBe('unknown_parameter');
    }
    expect(errorOf(await call({})).message).toMatch(/location is required/i);
    expect(errorOf(await call({ market: 'no-such-place' })).code).toBe('market_not_found');
    // A start date within the year is a search, not an error.
    expect((await search({ market, start_date: d(365) })).total_properties).toBeGreaterThanOrEqual(0);
  });
});

describe('search_properties_tool, randomized against the model', () => {
  it('answers random (place, dates, filters, bounds, sort) searches as the engine model does: cards, counts, order', async () => {
    let state = 20261124;
    const rnd = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    const places = world.markets.flatMap((m) => [m.slug, ...m.cities.map((c) => c.slug)]);
    for (let i = 0; i < 30; i++) {
      const args: Record<string, unknown> = { market: places[rnd(places.length)] };
      const kind = rnd(4);
      const start = d(rnd(200));
      if (kind === 1) Object.assign(args, { start_date: start, end_date: addDays(start, 3 + rnd(90)) });
      if (kind === 2) Object.assign(args, { start_date: start, end_date: 'indefinite', committed_nights: 180 });
      if (kind === 3) Object.assign(args, { start_date: start });
      if (rnd(2)) args.min_bedrooms = rnd(3);
      if (rnd(3) === 0) args.pets = true;
      if (rnd(3) === 0) args.max_price = 3000 + rnd(5000);
      if (rnd(4) === 0) args.min_price = 1000 + rnd(3000);
      if (rnd(4) === 0) args.min_rating = 3 + rnd(20) / 10;
      const sort = (['recommended', 'price_asc', 'price_desc', 'rating_desc'] as const)[rnd(4)];
      if ((args.min_price as number) > (args.max_price as number)) delete args.min_price;
      const { cards, first } = await allCards({ ...args, sort_by: sort }, 1 + rnd(12));
      const label = JSON.stringify({ ...args, sort });
      try {
        expectCardsMatchModel(cards, first, expectedUnits(args));
      } catch (err) {
        throw new Error(`${label}: ${(err as Error).message}`, { cause: err });
      }
      if (sort === 'price_asc' || sort === 'price_desc') {
        const prices = cards.map((c) => c.from_price);
        expect({ label, prices }).toEqual({ label, prices: [...prices].sort((a, b) => (sort === 'price_asc' ? a - b : b - a)) });
      }
    }
  });
});

describe('search_properties_tool offers', () => {
  it('met real offers on bed groups in the searches above, so their anchor and saving checks ran', () => {
    expect(anchorsSeen).toBeGreaterThan(0);
  });
});
