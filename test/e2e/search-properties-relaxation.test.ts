/**
 * search_properties_tool (docs/contract.md, "search_properties_tool"): a thin search relaxed into
 * additional_properties (extended_duration, category_search, nearby, nearest_display_city), over the SDK's MCP client on a
 * generated world on the real stores (test/e2e/shared/search-properties.ts). Expected units come from the
 * naive model (test/support/search-model.ts: the stay engine over the records), grouped by building.
 */
import { addDays } from '../../services/kernel/engine/dates';
import { haversineMiles } from '../../services/search/shared/distance';
import type { Fixture } from '../support/fixture';
import type { World } from '../support/search-model';
import { propertySearch, startPropertiesWorld, type Card } from './shared/search-properties';

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

const { search, expectedUnits, byBuilding } = propertySearch(
  () => fx,
  () => world,
);

describe('search_properties_tool', () => {
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
    const flags = {
      pool: true,
      gym: true,
      balcony: true,
      elevator: true,
      first_floor_unit: true,
      self_check_in: true,
      in_unit_laundry: true,
      dogs: true,
      deals_only: true,
    };
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
    const dist = (c: { latitude: number; longitude: number }) =>
      haversineMiles({ lat: target.latitude, lon: target.longitude }, { lat: c.latitude, lon: c.longitude });
    const nearestCity = withMatch.sort((a, b) => dist(a) - dist(b))[0];
    expect(res.additional_properties[0].city).toBe(world.homes.find((h) => h.home.city_slug === nearestCity.slug)!.property.city);
  });
});
