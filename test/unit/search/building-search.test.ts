/**
 * The requests one building search sends, pinned by their output for its main inputs: the units'
 * filter (place, filters, radius, rating, square footage, monthly limits, dated or not) and which
 * requests each order takes, as a recording transport sees them.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Deps } from '../../../services/deps';
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { toDayNumber as day } from '../../../services/kernel/engine/dates';
import { unitSearchParams, type BuildingQuery } from '../../../services/search/buildings/building-query';
import { answerBuildingSearch } from '../../../services/search/buildings/building-search';
import { searchBuildings } from '../../../services/search/buildings/run-building-search';
import type { SearchResponse, SearchTransport } from '../../../services/search/shared/search-transport';

const cambridge = { slug: 'cambridge', name: 'Cambridge', state: 'MA', latitude: 42.37, longitude: -71.11 };
const market = { slug: 'boston', name: 'Boston', state: 'MA', cities: [cambridge] } as unknown as MarketRecord;
const undated: BuildingQuery = {
  location: { market, city: cambridge },
  filters: { min_bedrooms: 2, gym: true, near_latitude: 42.36, near_longitude: -71.06 },
  stay: { kind: 'undated' },
  monthly: { min: 1500, max: 4000 },
  minRating: 4,
  minSqft: 700,
  sort: 'recommended',
};
const TODAY = '2027-01-01';

/** A transport that counts 40 matching units in 12 buildings and lists none, keeping each round trip's bodies. */
function recordingTransport(): { t: SearchTransport; trips: estypes.SearchRequest[][] } {
  const trips: estypes.SearchRequest[][] = [];
  const answer = {
    hits: { total: { value: 40, relation: 'eq' }, hits: [] },
    aggregations: { building_total: { count: 12 }, by_price: { buckets: [] }, units_per_building: { buckets: [] } },
  } as unknown as SearchResponse;
  const t: SearchTransport = {
    search: async (body) => (trips.push([body]), answer),
    searchAll: async (bodies) => (trips.push([...bodies]), bodies.map(() => answer)),
    aggregate: async () => ({ aggregations: {}, total: 0 }),
  };
  return { t, trips };
}

const UNDATED_FILTER = [
  { term: { bookable: true } },
  { term: { city_slug: 'cambridge' } },
  { range: { bedrooms: { gte: 2, lte: undefined } } },
  { term: { has_gym: true } },
  { geo_distance: { distance: '5mi', location: { lat: 42.36, lon: -71.06 } } },
  { range: { rating_average: { gte: 4 } } },
  { range: { 'reference_price.with_discount': { gte: 1500, lte: 4000 } } },
  { range: { sqft: { gte: 700 } } },
];

describe('searchBuildings, as sent', () => {
  it('undated, recommended, page 2 of 5: the counts and the collapsed page in one round trip, over the exact unit filter', async () => {
    const { t, trips } = recordingTransport();
    const page = await searchBuildings({} as Deps, t, undated, 5, 5, TODAY);
    expect([page.totalProperties, page.totalHomes, page.cards]).toEqual([12, 40, []]);
    expect(trips).toHaveLength(1);
    const [counts, collapsed] = trips[0];
    expect(counts.query).toEqual({ bool: { filter: UNDATED_FILTER } });
    expect(Object.keys(counts.aggs ?? {})).toEqual(['tally', 'building_total', 'building_estimate']);
    expect(collapsed).toEqual(expect.objectContaining({ from: 5, size: 5, collapse: { field: 'property_id' }, query: { bool: { filter: UNDATED_FILTER } } }));
  });

  it('by price, undated: the counts alone, with the first page+offset buildings by their cheapest unit', async () => {
    const { t, trips } = recordingTransport();
    await searchBuildings({} as Deps, t, { ...undated, sort: 'price_asc' }, 10, 10, TODAY);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toHaveLength(1);
    expect(trips[0][0].aggs?.by_price).toEqual({
      terms: { field: 'property_id', size: 20, order: [{ price: 'asc' }, { _key: 'asc' }] },
      aggs: { price: { min: { field: 'reference_price.with_discount' } } },
    });
  });

  it('a fixed stay by price, descending: the counts list every building with its units, for the price stream', async () => {
    const { t, trips } = recordingTransport();
    const dated = {
      ...undated,
      monthly: { min: null, max: null },
      stay: { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 },
    } as const;
    await searchBuildings({} as Deps, t, { ...dated, sort: 'price_desc' }, 0, 10, TODAY);
    const counts = trips[0][0];
    expect(Object.keys(counts.aggs ?? {})).toEqual(['units_per_building', 'building_total', 'building_estimate']);
    // A fixed stay's clauses admit bookable homes only: no `bookable` clause.
    expect((counts.query?.bool?.filter as estypes.QueryDslQueryContainer[])[0]).toEqual({ term: { city_slug: 'cambridge' } });
    expect((counts.query?.bool?.filter as estypes.QueryDslQueryContainer[])[5]).toEqual({ term: { move_ins: day('2027-03-01') } });
  });

  it('a move-in date in the past sends nothing', async () => {
    const { t, trips } = recordingTransport();
    const past = { ...undated, stay: { kind: 'start_only', start_date: '2026-12-01' } } as const;
    expect(await searchBuildings({} as Deps, t, past, 0, 10, TODAY)).toEqual(expect.objectContaining({ totalProperties: 0, cards: [] }));
    expect(trips).toEqual([]);
  });
});

describe('the units a building search stands on', () => {
  it('monthly limits are compared per night for a stay shown per night, and the units are in price order only for a price sort', () => {
    const short = { ...undated, stay: { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-03-11', nights: 10 } } as const;
    expect(unitSearchParams(short).price).toEqual({ min: 50, max: 133 });
    expect(unitSearchParams(undated).price).toEqual({ min: 1500, max: 4000 });
    expect(unitSearchParams({ ...undated, sort: 'price_desc' }).sort).toBe('price_desc');
    expect(unitSearchParams({ ...undated, sort: 'rating_desc' }).sort).toBe('price_asc');
  });
});

describe('answerBuildingSearch, as sent', () => {
  it("every request of the search and of its relaxation is routed to the market's shard, an _msearch in each header", async () => {
    const routings: unknown[] = [];
    const none = { hits: { total: { value: 0, relation: 'eq' }, hits: [] }, aggregations: {} };
    const es = {
      search: async (request: { routing?: unknown }) => (routings.push(request.routing), none),
      msearch: async (request: { searches: Array<{ routing?: unknown; query?: unknown }> }) => {
        const headers = request.searches.filter((_, i) => i % 2 === 0);
        routings.push(...headers.map((h) => h.routing));
        return { body: { responses: headers.map(() => none) } };
      },
    };
    const deps = {
      es,
      config: { homesAlias: 'homes' },
      esNodes: undefined,
      routingKeys: { keyOf: async (slug: string) => `key-of-${slug}` },
    } as unknown as Deps;
    const answer = await answerBuildingSearch(deps, undated, { offset: 0, size: 10, relax: true }, TODAY);
    expect(answer).toEqual({ found: expect.objectContaining({ totalProperties: 0, cards: [] }), relaxed: null });
    // The search, category_search and nearby (two each: counts and page), nearest_display_city's lookup (one).
    expect(routings).toEqual(Array(7).fill('key-of-boston'));
  });
});
