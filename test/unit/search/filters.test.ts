/** The shared filter arguments → Elasticsearch clauses (docs/contract.md, "Filters"), by their output. */
import { filterClauses, FLAG_FIELDS, locationClauses, nearPoint } from '../../../services/search/shared/filters';
import { ApiError } from '../../../services/kernel/errors';
import type { MarketRecord } from '../../../services/kernel/inventory/records';

const market = { slug: 'boston', cities: [{ slug: 'cambridge', name: 'Cambridge', state: 'MA', latitude: 0, longitude: 0 }] } as unknown as MarketRecord;

describe('filterClauses', () => {
  it('adds nothing for an empty filter set, and nothing for a flag set to false', () => {
    expect(filterClauses({})).toEqual([]);
    expect(filterClauses({ pool: false, pets: false })).toEqual([]);
  });

  it('turns every true flag into a term on its authoritative field', () => {
    for (const [arg, field] of Object.entries(FLAG_FIELDS)) {
      expect(filterClauses({ [arg]: true })).toEqual([{ term: { [field]: true } }]);
    }
    expect(FLAG_FIELDS.parking).toBe('has_parking');
    expect(FLAG_FIELDS.deals_only).toBe('has_active_offer');
  });

  it('bounds bedrooms (0 = studio) and bathrooms', () => {
    expect(filterClauses({ min_bedrooms: 0, max_bedrooms: 1 })).toEqual([{ range: { bedrooms: { gte: 0, lte: 1 } } }]);
    expect(filterClauses({ max_bedrooms: 0 })).toEqual([{ range: { bedrooms: { gte: undefined, lte: 0 } } }]);
    expect(filterClauses({ min_bathrooms: 1.5 })).toEqual([{ range: { bathrooms: { gte: 1.5 } } }]);
  });

  it('draws a true circle around the point, 5 miles by default', () => {
    expect(filterClauses({ near_latitude: 42.36, near_longitude: -71.06 })).toEqual([
      { geo_distance: { distance: '5mi', location: { lat: 42.36, lon: -71.06 } } },
    ]);
    expect(filterClauses({ near_latitude: 42.36, near_longitude: -71.06, near_radius_miles: 1.5 })).toEqual([
      { geo_distance: { distance: '1.5mi', location: { lat: 42.36, lon: -71.06 } } },
    ]);
  });

  it('refuses one coordinate without the other, and a radius without a point', () => {
    expect(() => nearPoint({ near_latitude: 42 })).toThrow(ApiError);
    expect(() => nearPoint({ near_longitude: -71 })).toThrow(ApiError);
    expect(() => nearPoint({ near_radius_miles: 2 })).toThrow(ApiError);
  });
});

describe('locationClauses', () => {
  it('keeps bookable homes of the city when a city was named, else of the market', () => {
    expect(locationClauses({ market, city: market.cities[0] })).toEqual([{ term: { bookable: true } }, { term: { city_slug: 'cambridge' } }]);
    expect(locationClauses({ market, city: null })).toEqual([{ term: { bookable: true } }, { term: { market_slug: 'boston' } }]);
  });
});
