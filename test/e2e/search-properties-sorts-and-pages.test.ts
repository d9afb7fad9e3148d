/**
 * search_properties_tool (docs/contract.md, "search_properties_tool"): its sorts (price, rating,
 * recommended, distance in a true circle) and its pages, at any depth, over the SDK's MCP client on a
 * generated world on the real stores (test/e2e/shared/search-properties.ts). Expected units come from the
 * naive model (test/support/search-model.ts: the stay engine over the records), grouped by building.
 */
import { addDays } from '../../services/kernel/engine/dates';
import { haversineMiles } from '../../services/search/shared/distance';
import type { Fixture } from '../support/fixture';
import type { World } from '../support/search-model';
import { propertySearch, startPropertiesWorld } from './shared/search-properties';

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

const { search, allCards, expectedUnits, expectCardsMatchModel } = propertySearch(
  () => fx,
  () => world,
);

describe('search_properties_tool', () => {
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
});
