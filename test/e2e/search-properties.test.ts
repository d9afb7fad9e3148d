/**
 * search_properties_tool (docs/contract.md, "search_properties_tool": the card and its envelope), over
 * the SDK's MCP client on a generated world on the real stores. Expected units come from the naive
 * model (test/support/search-model.ts: the stay engine over the records), grouped by building.
 */
import { addDays, addYears } from '../../services/kernel/engine/dates';
import { haversineMiles } from '../../services/search/shared/distance';
import { startFixture, type Fixture } from '../support/fixture';
import { busiestCity, expectedResults, loadWorld, type ModelArgs, type ModelResult, type World } from '../support/search-model';

let fx: Fixture;
let world: World;
let market: string;
let city: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  fx = await startFixture({ homes: 700, seed: 11 });
  world = await loadWorld(fx.mongo.collections, fx.today);
  ({ city, market } = busiestCity(world));
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

type Card = Record<string, any>;
type Envelope = Record<string, any> & { properties: Card[] };

async function call(args: Record<string, unknown>) {
  const client = await fx.mcp();
  return client.callTool({ name: 'search_properties_tool', arguments: args });
}

async function search(args: Record<string, unknown>): Promise<Envelope> {
  const res = await call(args);
  expect(res.isError).toBeFalsy();
  return res.structuredContent as Envelope;
}

function errorOf(result: Awaited<ReturnType<typeof call>>): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
}

/** Every page, concatenated, with the first envelope. */
async function allCards(args: Record<string, unknown>, perPage = 7): Promise<{ cards: Card[]; first: Envelope }> {
  const cards: Card[] = [];
  let first: Envelope | undefined;
  for (let page = 1; ; page++) {
    const res = await search({ ...args, page, per_page: perPage });
    first ??= res;
    cards.push(...res.properties);
    if (page >= res.total_pages) return { cards, first: first! };
  }
}

/** The model's units of a building search: monthly limits, square footage, the highest rating threshold. */
function expectedUnits(args: Record<string, unknown>, opts: { ignorePrice?: boolean; minSqft?: number } = {}): ModelResult[] {
  const modelArgs: ModelArgs = { ...args, price_unit: 'per_month' };
  return expectedResults(world, modelArgs, opts).filter((r) => opts.minSqft === undefined || r.m.home.sqft >= opts.minSqft);
}

function byBuilding(units: ModelResult[]): Map<string, ModelResult[]> {
  const out = new Map<string, ModelResult[]>();
  for (const u of units) out.set(u.m.property._id, [...(out.get(u.m.property._id) ?? []), u]);
  return out;
}

const priceOf = (u: ModelResult) => u.price.display_price_with_discount;

/** Every card of the search agrees with the model: units, prices, groups, counts, no building missing. */
let anchorsSeen = 0;

function expectCardsMatchModel(cards: Card[], first: Envelope, expected: ModelResult[], otherDates?: Map<string, number>) {
  const buildings = byBuilding(expected);
  expect(first.total_homes).toBe(expected.length);
  expect(first.total_properties).toBe(buildings.size);
  expect(cards.map((c) => c.id).sort()).toEqual([...buildings.keys()].sort());
  expect(new Set(cards.map((c) => c.id)).size).toBe(cards.length);
  for (const card of cards) {
    const units = buildings.get(card.id)!;
    const cheapest = Math.min(...units.map(priceOf));
    expect(card.from_price).toBe(cheapest);
    // bed_groups: one per bedroom count, cheapest first, counts and minimums exact.
    const counts = new Map<number, ModelResult[]>();
    for (const u of units) counts.set(u.m.home.bedrooms, [...(counts.get(u.m.home.bedrooms) ?? []), u]);
    expect(card.bed_groups.map((g: Card) => g.bedrooms).sort()).toEqual([...counts.keys()].sort());
    for (const g of card.bed_groups) {
      const group = counts.get(g.bedrooms)!;
      expect(g.count).toBe(group.length);
      expect(g.min_price).toBe(Math.min(...group.map(priceOf)));
      // anchor_price: the cheapest unit's pre-discount price, only beside a real offer on it (ties by id).
      const cheapestUnit = [...group].sort((a, b) => priceOf(a) - priceOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
      const before = cheapestUnit.price.display_price_without_discount;
      expect(g.anchor_price).toBe(before > priceOf(cheapestUnit) ? before : null);
      anchorsSeen += g.anchor_price === null ? 0 : 1;
    }
    const mins = card.bed_groups.map((g: Card) => g.min_price);
    expect(mins).toEqual([...mins].sort((a: number, b: number) => a - b));
    // units: at most three per bedroom count, the cheapest ones, each at its quote's price.
    const bySlug = new Map(units.map((u) => [u.slug, u]));
    for (const [bedrooms, group] of counts) {
      const shown = card.units.filter((u: Card) => u.bedrooms === bedrooms);
      expect(shown.length).toBe(Math.min(3, group.length));
      const cheapestThree = group.map(priceOf).sort((a, b) => a - b).slice(0, 3);
      expect(shown.map((u: Card) => u.price).sort((a: number, b: number) => a - b)).toEqual(cheapestThree);
    }
    for (const u of card.units) {
      const model = bySlug.get(u.slug)!;
      expect(model).toBeDefined();
      expect(u.id).toBe(model.id);
      expect(u.price).toBe(priceOf(model));
      expect(u.price_label).toBe(model.price.display_price_label);
      expect(u.anchor_price).toBe(model.price.display_price_without_discount > priceOf(model) ? model.price.display_price_without_discount : null);
    }
    // offer: the smallest per-bedroom saving, or null without any (from the model, not from the card).
    const savings = [...counts.values()].flatMap((group) => {
      const c = [...group].sort((a, b) => priceOf(a) - priceOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
      const before = c.price.display_price_without_discount;
      return before > priceOf(c) ? [before - priceOf(c)] : [];
    });
    expect(card.offer === null ? null : card.offer.saving).toBe(savings.length ? Math.min(...savings) : null);
    if (otherDates) expect(card.other_dates_count).toBe(otherDates.get(card.id) ?? 0);
    expect(card.other_dates.length).toBeLessThanOrEqual(card.other_dates_count);
    for (const o of card.other_dates) expect(o).not.toHaveProperty('price');
  }
}

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
    const args = { market: city, start_date: d(21), end_date: d(80), min_bedrooms: 1, max_price: 6000, min_price: 1500 };
    const { cards, first } = await allCards(args);
    const expected = expectedUnits(args);
    expect(expected.length).toBeGreaterThan(3);
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

  it('sorts by from_price both ways for fixed stays (the price stream) and undated searches (the index), across pages', async () => {
    for (const args of [
      { market, start_date: d(10), end_date: d(50) },
      { market, start_date: d(10), end_date: d(15) },
      { market },
      { market, start_date: d(30), end_date: 'indefinite', committed_nights: 180 },
    ]) {
      for (const sort_by of ['price_asc', 'price_desc'] as const) {
        const { cards, first } = await allCards({ ...args, sort_by }, 6);
        expectCardsMatchModel(cards, first, expectedUnits(args));
        const prices = cards.map((c) => c.from_price);
        const sorted = [...prices].sort((a, b) => (sort_by === 'price_asc' ? a - b : b - a));
        expect(prices).toEqual(sorted);
      }
    }
  });

  it('sorts by rating (unrated last) and recommended by default; distance without coordinates falls back to recommended', async () => {
    const { cards } = await allCards({ market, sort_by: 'rating_desc' });
    const ratings = cards.map((c) => (c.rating === null ? -1 : c.rating.average));
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    const recommended = (await allCards({ market })).cards.map((c) => c.id);
    expect((await allCards({ market, sort_by: 'recommended' })).cards.map((c) => c.id)).toEqual(recommended);
    expect((await allCards({ market, sort_by: 'distance' })).cards.map((c) => c.id)).toEqual(recommended);
  });

  it('searches a true circle around a point: every building inside the radius by haversine, none missing, distance ascending', async () => {
    const center = world.homes.find((h) => h.home.city_slug === city)!.property;
    const near = { near_latitude: center.latitude + 0.01, near_longitude: center.longitude - 0.01, near_radius_miles: 3 };
    const args = { market, ...near, sort_by: 'distance' };
    const { cards, first } = await allCards(args);
    expectCardsMatchModel(cards, first, expectedUnits({ market, ...near }));
    const distances = cards.map((c) => c.distance_miles);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const c of cards) {
      const exact = haversineMiles({ lat: near.near_latitude, lon: near.near_longitude }, { lat: c.latitude, lon: c.longitude });
      expect(c.distance_miles).toBeCloseTo(exact, 1);
      expect(exact).toBeLessThanOrEqual(3);
    }
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

  it('pages default to 10 buildings and stop at 1000', async () => {
    const res = await search({ market });
    expect(res.per_page).toBe(10);
    expect(res.properties.length).toBe(Math.min(10, res.total_properties));
    const big = await search({ market, per_page: 5000 });
    expect(big.per_page).toBe(1000);
    expect(big.properties.length).toBe(big.total_properties);
    const past = await search({ market, page: big.total_properties + 1, per_page: 1 });
    expect(past.properties).toEqual([]);
  });

  it('answers a page past the last building empty with the totals at any depth, past building 10,000 too, for every sort and stay', async () => {
    const stays = [{}, { start_date: d(20), end_date: d(60) }, { start_date: d(20), end_date: 'indefinite', committed_nights: 180 }];
    for (const stay of stays) {
      for (const sort_by of ['recommended', 'price_asc', 'price_desc', 'rating_desc'] as const) {
        const first = await search({ market, ...stay, sort_by });
        const deep = await search({ market, ...stay, sort_by, page: 10_000, per_page: 1000 });
        expect(deep.properties).toEqual([]);
        expect(deep.additional_properties).toEqual([]);
        expect([deep.page, deep.per_page]).toEqual([10_000, 1000]);
        expect([deep.total_properties, deep.total_homes]).toEqual([first.total_properties, first.total_homes]);
        expect(deep.total_pages).toBe(Math.ceil(first.total_properties / 1000));
      }
    }
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

  it('relaxes a thin search into additional_properties with an additional_type, never repeating a building it shows', async () => {
    // A two-night stay fits almost no unit's minimum: the longer stays from the same date fill in.
    const stay = { market: city, start_date: d(12), end_date: d(14) };
    expect(byBuilding(expectedUnits(stay)).size).toBeLessThan(3);
    const thin = await search(stay);
    expect(thin.total_properties).toBeLessThan(3);
    expect(thin.additional_type).toBe('extended_duration');
    expect(thin.additional_properties.length).toBeGreaterThan(0);
    const shown = new Set(thin.properties.map((c) => c.id));
    for (const c of thin.additional_properties) expect(shown.has(c.id)).toBe(false);
    // Every category at once matches (almost) nothing: the categories are dropped.
    const flags = { pool: true, gym: true, balcony: true, elevator: true, first_floor_unit: true, self_check_in: true, in_unit_laundry: true, dogs: true, deals_only: true };
    expect(byBuilding(expectedUnits({ market: city, ...flags })).size).toBeLessThan(3);
    const none = await search({ market: city, ...flags });
    expect(none.additional_type).toBe('category_search');
    expect(none.additional_properties.length).toBeGreaterThan(0);
    for (const c of none.additional_properties) expect(none.properties.some((x) => x.id === c.id)).toBe(false);
    // A search that stands alone says so.
    const full = await search({ market });
    expect(full.total_properties).toBeGreaterThanOrEqual(3);
    expect(full.additional_type).toBeNull();
    expect(full.additional_properties).toEqual([]);
  });

  it('relaxes a thin point search to a wider circle (nearby), within three times the radius', async () => {
    const mile = 1 / 69;
    const candidates = world.homes.filter((h) => h.home.market_slug === market).map((h) => h.property);
    const point = candidates
      .map((p) => ({ near_latitude: p.latitude + mile, near_longitude: p.longitude }))
      .find((pt) => expectedUnits({ market, ...pt, near_radius_miles: 0.5 }).length === 0);
    expect(point).toBeDefined();
    const tiny = await search({ market, ...point!, near_radius_miles: 0.5 });
    expect(tiny.total_properties).toBe(0);
    expect(tiny.additional_type).toBe('nearby');
    expect(tiny.additional_properties.length).toBeGreaterThan(0);
    for (const c of tiny.additional_properties) expect(c.distance_miles).toBeLessThanOrEqual(1.5);
  });

  it('relaxes a thin city search to the nearest display city of the market with matching buildings', async () => {
    const m = world.markets.find((x) => x.slug === market)!;
    const inCity = (slug: string) => world.homes.filter((h) => h.home.city_slug === slug && h.home.published);
    const largest = (slug: string) => Math.max(0, ...inCity(slug).map((h) => h.home.sqft));
    const target = m.cities.find((c) => m.cities.some((o) => o.slug !== c.slug && largest(o.slug) > largest(c.slug)))!;
    const minSqft = largest(target.slug) + 1;
    const res = await search({ market: target.slug, min_square_footage: minSqft });
    expect(res.total_properties).toBe(0);
    expect(res.additional_type).toBe('nearest_display_city');
    const cities = new Set(res.additional_properties.map((c: Card) => c.city));
    expect(cities.size).toBe(1);
    // The nearest city (from the searched city's point) that has a matching unit.
    const withMatch = m.cities.filter((c) => c.slug !== target.slug && expectedUnits({ market: c.slug }, { minSqft }).length > 0);
    const dist = (c: { latitude: number; longitude: number }) => haversineMiles({ lat: target.latitude, lon: target.longitude }, { lat: c.latitude, lon: c.longitude });
    const nearestCity = withMatch.sort((a, b) => dist(a) - dist(b))[0];
    expect(res.additional_properties[0].city).toBe(world.homes.find((h) => h.home.city_slug === nearestCity.slug)!.property.city);
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
