/**
 * The requests a thin building search's relaxation sends, step by step, pinned by their filters and
 * orders: each step's search (or lookup) as a recording transport sees it, when none finds a building.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Deps } from '../../../services/deps';
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { minimumKeys } from '../../../services/kernel/store/minimum-keys';
import { toDayNumber as day } from '../../../services/kernel/engine/dates';
import type { BuildingQuery } from '../../../services/search/buildings/building-query';
import { relaxThinSearch } from '../../../services/search/buildings/relax-buildings';
import type { SearchResponse, SearchTransport } from '../../../services/search/shared/search-transport';

const cambridge = { slug: 'cambridge', name: 'Cambridge', state: 'MA', latitude: 42.37, longitude: -71.11 };
const somerville = { slug: 'somerville', name: 'Somerville', state: 'MA', latitude: 42.39, longitude: -71.1 };
const market = { slug: 'boston', name: 'Boston', state: 'MA', cities: [cambridge, somerville] } as unknown as MarketRecord;
const fixed = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 } as const;
const q: BuildingQuery = {
  location: { market, city: cambridge },
  filters: { pool: true, near_latitude: 42.36, near_longitude: -71.06, near_radius_miles: 2 },
  stay: fixed,
  monthly: { min: null, max: null },
  minRating: null,
  minSqft: null,
  sort: 'recommended',
};

/** A transport that answers every search with nothing, and keeps each round trip's bodies. */
function emptyTransport(): { t: SearchTransport; trips: estypes.SearchRequest[][] } {
  const trips: estypes.SearchRequest[][] = [];
  const empty = { hits: { total: { value: 0, relation: 'eq' }, hits: [] }, aggregations: {} } as unknown as SearchResponse;
  const t: SearchTransport = {
    search: async (body) => (trips.push([body]), empty),
    searchAll: async (bodies) => (trips.push([...bodies]), bodies.map(() => empty)),
    aggregate: async () => ({ aggregations: {}, total: 0 }),
  };
  return { t, trips };
}

const filterOf = (body: estypes.SearchRequest) => body.query?.bool?.filter;
const NOT_SHOWN = { bool: { must_not: [{ terms: { property_id: ['p9'] } }] } };
const POOL = { term: { has_pool: true } };
const circle = (miles: number) => ({ geo_distance: { distance: `${miles}mi`, location: { lat: 42.36, lon: -71.06 } } });
const start = day('2027-03-01');
const end = day('2027-04-15');
const FIXED_STAY = [
  { term: { move_ins: start } },
  { terms: { minimum_keys: minimumKeys('2027-03-01', 45) } },
  { range: { open_windows: { gte: start, lt: end, relation: 'contains' } } },
  { term: { move_outs: end } },
];
const RECOMMENDED = [
  { has_active_offer: 'desc' },
  { rating_average: { order: 'desc', missing: '_last' } },
  { 'reference_price.with_discount': 'asc' },
  { property_id: 'asc' },
];

describe('the relaxation of a thin building search, as sent', () => {
  it('tries each step in order, leaving out the buildings shown, and finds nothing when no step does', async () => {
    const { t, trips } = emptyTransport();
    expect(await relaxThinSearch({} as Deps, t, q, ['p9'], 10, '2027-01-01')).toBeNull();
    expect(trips.map((trip) => trip.length)).toEqual([2, 2, 2, 1, 1]);
    const [extended, category, nearby, nearestCity, hotCities] = trips;

    // 1. extended_duration: any stay from the same move-in date (its clause implies bookable homes).
    expect(filterOf(extended[0])).toEqual([{ term: { city_slug: 'cambridge' } }, POOL, circle(2), { term: { fixed_move_ins: start } }, NOT_SHOWN]);
    expect(extended[1]).toEqual(expect.objectContaining({ from: 0, size: 10, collapse: { field: 'property_id' }, sort: RECOMMENDED }));
    expect(filterOf(extended[1])).toEqual(filterOf(extended[0]));

    // 2. category_search: the same stay without the amenity filters.
    expect(filterOf(category[0])).toEqual([{ term: { city_slug: 'cambridge' } }, circle(2), ...FIXED_STAY, NOT_SHOWN]);

    // 3. nearby: three times the radius, nearest building first.
    expect(filterOf(nearby[0])).toEqual([{ term: { city_slug: 'cambridge' } }, POOL, circle(6), ...FIXED_STAY, NOT_SHOWN]);
    expect(nearby[1].sort).toEqual([
      { _geo_distance: { location: { lat: 42.36, lon: -71.06 }, order: 'asc', unit: 'mi', distance_type: 'arc' } },
      { property_id: 'asc' },
    ]);

    // 4. nearest_display_city: one unit of the rest of the market, nearest to the city first.
    expect(nearestCity[0]).toEqual(expect.objectContaining({ from: 0, size: 1, collapse: { field: 'property_id' } }));
    expect(filterOf(nearestCity[0])).toEqual([
      { term: { market_slug: 'boston' } },
      POOL,
      circle(2),
      ...FIXED_STAY,
      NOT_SHOWN,
      { bool: { must_not: [{ term: { city_slug: 'cambridge' } }] } },
    ]);
    expect(nearestCity[0].sort).toEqual([
      { _geo_distance: { location: { lat: 42.37, lon: -71.11 }, order: 'asc', unit: 'mi', distance_type: 'arc' } },
      { property_id: 'asc' },
    ]);

    // 5. hot_cities: the search undated over the market, its three cities with most units.
    expect(hotCities[0]).toEqual({
      size: 0,
      query: { bool: { filter: [{ term: { bookable: true } }, { term: { market_slug: 'boston' } }, POOL, circle(2), NOT_SHOWN] } },
      aggs: { cities: { terms: { field: 'city_slug', size: 3 } } },
    });
  });

  it('an undated market search without filters or a point has no step to try but none', async () => {
    const { t, trips } = emptyTransport();
    const plain: BuildingQuery = { ...q, location: { market, city: null }, filters: {}, stay: { kind: 'undated' } };
    expect(await relaxThinSearch({} as Deps, t, plain, [], 10, '2027-01-01')).toBeNull();
    expect(trips).toEqual([]);
  });
});
