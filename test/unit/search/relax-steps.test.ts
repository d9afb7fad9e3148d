import type { BuildingQuery } from '../../../services/search/buildings/building-query';
import {
  categorySearch,
  extendedDuration,
  hotCities,
  hotCitiesLookup,
  nearby,
  nearestCityLookup,
  nearestDisplayCity,
} from '../../../services/search/buildings/relax-steps';
import type { MarketRecord } from '../../../services/kernel/inventory/records';

const cambridge = { slug: 'cambridge', name: 'Cambridge', state: 'MA', latitude: 42.37, longitude: -71.11 };
const somerville = { slug: 'somerville', name: 'Somerville', state: 'MA', latitude: 42.39, longitude: -71.1 };
const market = { slug: 'boston', name: 'Boston', state: 'MA', cities: [cambridge, somerville] } as unknown as MarketRecord;
const base: BuildingQuery = {
  location: { market, city: market.cities[0] },
  filters: {},
  stay: { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15' } as BuildingQuery['stay'],
  monthly: { min: null, max: null },
  minRating: null,
  minSqft: null,
  sort: 'recommended',
};

describe('the relaxation steps of a thin building search', () => {
  it('extended_duration turns a fixed stay into any stay from the same move-in date, and passes on anything else', () => {
    expect(extendedDuration(base)?.stay).toEqual({ kind: 'start_only', start_date: '2027-03-01' });
    expect(extendedDuration({ ...base, stay: { kind: 'undated' } })).toBeNull();
  });

  it('category_search drops every amenity and category filter that was set, keeping the others', () => {
    const q = { ...base, filters: { pets: true, pool: true, min_bedrooms: 2, gym: false } };
    expect(categorySearch(q)?.filters).toEqual({ min_bedrooms: 2, gym: false });
    expect(categorySearch({ ...base, filters: { min_bedrooms: 2 } })).toBeNull();
  });

  it('nearby triples the radius up to 100 miles, sorts by distance, and stops at 100', () => {
    const at = { near_latitude: 42.36, near_longitude: -71.06 };
    expect(nearby({ ...base, filters: at })).toEqual(expect.objectContaining({ filters: { ...at, near_radius_miles: 15 }, sort: 'distance' }));
    expect(nearby({ ...base, filters: { ...at, near_radius_miles: 40 } })?.filters.near_radius_miles).toBe(100);
    expect(nearby({ ...base, filters: { ...at, near_radius_miles: 100 } })).toBeNull();
    expect(nearby(base)).toBeNull();
  });

  it('nearest_display_city looks in the rest of the market nearest-first, then moves the search to the city found', () => {
    const lookup = nearestCityLookup(base)!;
    expect(lookup.query.location!.city).toBeNull();
    expect(lookup.query.extra).toEqual([{ bool: { must_not: [{ term: { city_slug: 'cambridge' } }] } }]);
    expect(lookup.sort[0]).toEqual({ _geo_distance: { location: { lat: 42.37, lon: -71.11 }, order: 'asc', unit: 'mi', distance_type: 'arc' } });
    expect(nearestDisplayCity(base, 'somerville')?.location!.city?.slug).toBe('somerville');
    expect(nearestDisplayCity(base, undefined)).toBeNull();
    expect(nearestCityLookup({ ...base, location: { market, city: null } })).toBeNull();
  });

  it('hot_cities shows a dated search undated over the market, limited to the cities the lookup found', () => {
    const undated = hotCitiesLookup(base)!;
    expect(undated.stay).toEqual({ kind: 'undated' });
    expect(undated.location!.city).toBeNull();
    expect(hotCities(undated, ['somerville', 'cambridge'])?.extra).toEqual([{ terms: { city_slug: ['somerville', 'cambridge'] } }]);
    expect(hotCities(undated, [])).toBeNull();
    expect(hotCitiesLookup({ ...base, stay: { kind: 'undated' } })).toBeNull();
  });

  it('a polygon is kept by every step; without a market the two that need one are skipped', () => {
    const polygon = { vertices: [cambridge, somerville, { latitude: 42.35, longitude: -71.05 }].map((c) => ({ lat: c.latitude, lon: c.longitude })) };
    const inside: BuildingQuery = { ...base, polygon, filters: { pets: true, near_latitude: 42.37, near_longitude: -71.11 } };
    for (const step of [extendedDuration(inside), categorySearch(inside), nearby(inside), nearestCityLookup(inside)?.query, hotCitiesLookup(inside)]) {
      expect(step?.polygon).toBe(polygon);
    }
    expect(nearestDisplayCity(inside, 'somerville')?.polygon).toBe(polygon);
    const alone: BuildingQuery = { ...inside, location: null };
    expect(nearestCityLookup(alone)).toBeNull();
    expect(nearestDisplayCity(alone, 'somerville')).toBeNull();
    expect(hotCitiesLookup(alone)).toBeNull();
  });
});
