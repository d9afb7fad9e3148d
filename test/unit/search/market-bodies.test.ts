/** The market family's Elasticsearch requests (listed places, market filters, market info), pinned by their output, and how they are sent. */
import type { Deps } from '../../../services/deps';
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { AggregateCache } from '../../../services/markets/aggregate-cache';
import { buildListedPlacesBody, parseListedPlaces } from '../../../services/search/markets/listed-places';
import { buildMarketFiltersBody, shapeMarketFilters } from '../../../services/search/markets/market-filters';
import { buildMarketInfoBody, shapeMarketInfo } from '../../../services/search/markets/market-info';
import { readListedPlaces, readMarketFilters, readMarketStats } from '../../../services/search/markets/market-searches';
import { GenerationAnswers } from '../../../services/kernel/store/generation-answers';
import { LISTED_PLACES_BYTES, listedPlacesBytes } from '../../../services/kernel/store/listed-places';
import { SEARCH_SORTS } from '../../../services/search/shared/sorts';

const BOOKABLE_IN_BOSTON = [{ term: { bookable: true } }, { term: { market_slug: 'boston' } }];
const cambridge = { slug: 'cambridge', name: 'Cambridge', state: 'MA', latitude: 42.37, longitude: -71.11 };
const quincy = { slug: 'quincy', name: 'Quincy', state: 'MA', latitude: 42.25, longitude: -71.0 };
const backBay = { id: 'n1', slug: 'back-bay', name: 'Back Bay', description: 'Brownstones.' };
const fenway = { id: 'n2', slug: 'fenway', name: 'Fenway', description: 'Ballpark.' };
const market = { slug: 'boston', name: 'Boston', state: 'MA', cities: [cambridge, quincy], neighborhoods: [backBay, fenway] } as unknown as MarketRecord;

describe('the listed places', () => {
  it('one aggregation over every bookable home: its markets, and the cities of each', () => {
    expect(buildListedPlacesBody()).toEqual({
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: [{ term: { bookable: true } }] } },
      aggs: { markets: { terms: { field: 'market_slug', size: 1000 }, aggs: { cities: { terms: { field: 'city_slug', size: 1000 } } } } },
    });
  });

  it('reads each market with its home count and the homes of each of its cities; an empty answer lists nothing', () => {
    const aggs = { markets: { buckets: [{ key: 'boston', doc_count: 7, cities: { buckets: [{ key: 'cambridge', doc_count: 7 }] } }] } };
    const listed = parseListedPlaces(aggs);
    expect([...listed.markets.keys()]).toEqual(['boston']);
    expect(listed.markets.get('boston')).toEqual({ homes: 7, cities: new Map([['cambridge', 7]]) });
    expect(parseListedPlaces(undefined).markets.size).toBe(0);
  });
});

describe('the market filters', () => {
  it("one aggregation over the market's bookable homes: cities, bedrooms, bathrooms, neighborhoods, the rent range and a count per flag", () => {
    expect(buildMarketFiltersBody('boston')).toEqual({
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: BOOKABLE_IN_BOSTON } },
      aggs: {
        cities: { terms: { field: 'city_slug', size: 500 } },
        bedrooms: { terms: { field: 'bedrooms', size: 50 } },
        bathrooms: { terms: { field: 'bathrooms', size: 50 } },
        neighborhoods: { terms: { field: 'neighborhood_id', size: 1000 } },
        min_rent: { min: { field: 'monthly_rate' } },
        max_rent: { max: { field: 'monthly_rate' } },
        flags: {
          filters: {
            filters: {
              pets: { term: { pets_allowed: true } },
              cats: { term: { cats_allowed: true } },
              dogs: { term: { dogs_allowed: true } },
              parking: { term: { has_parking: true } },
              pool: { term: { has_pool: true } },
              gym: { term: { has_gym: true } },
              in_unit_laundry: { term: { in_unit_laundry: true } },
              air_conditioned: { term: { air_conditioned: true } },
              balcony: { term: { has_balcony: true } },
              elevator: { term: { has_elevator: true } },
              first_floor_unit: { term: { first_floor_unit: true } },
              self_check_in: { term: { self_check_in: true } },
              deals_only: { term: { has_active_offer: true } },
            },
          },
        },
      },
    });
  });

  it('keeps the values that match homes, in ascending order, and the flags with at least one home', () => {
    const aggs = {
      cities: { buckets: [{ key: 'quincy', doc_count: 2 }] },
      bedrooms: {
        buckets: [
          { key: 2, doc_count: 1 },
          { key: 0, doc_count: 1 },
        ],
      },
      bathrooms: {
        buckets: [
          { key: 1.5, doc_count: 1 },
          { key: 1, doc_count: 1 },
        ],
      },
      neighborhoods: {
        buckets: [
          { key: 'n2', doc_count: 2 },
          { key: 'gone', doc_count: 1 },
        ],
      },
      min_rent: { value: 1900 },
      max_rent: { value: 4200 },
      flags: { buckets: { pool: { doc_count: 1 }, pets: { doc_count: 0 }, deals_only: { doc_count: 2 } } },
    };
    expect(shapeMarketFilters(market, aggs)).toEqual({
      market: { slug: 'boston' },
      cities: [{ slug: 'quincy', name: 'Quincy', state: 'MA' }],
      bedrooms: [0, 2],
      amenities: [
        { label: 'Pool', filter: 'pool' },
        { label: 'Special offers', filter: 'deals_only' },
      ],
      min_bathrooms: [1, 1.5],
      price_range: { min: 1900, max: 4200 },
      neighborhoods: [{ id: 'n2', slug: 'fenway', name: 'Fenway' }],
      sort_options: [...SEARCH_SORTS],
    });
  });

  it('a market without homes: empty lists and no rent range', () => {
    expect(shapeMarketFilters(market, {})).toEqual(
      expect.objectContaining({ cities: [], bedrooms: [], amenities: [], min_bathrooms: [], price_range: { min: null, max: null }, neighborhoods: [] }),
    );
  });
});

describe('the market info', () => {
  it("one aggregation over the market's bookable homes, counted: the average base rent by bedroom count, the five neighborhoods with most homes", () => {
    expect(buildMarketInfoBody('boston')).toEqual({
      size: 0,
      track_total_hits: true,
      query: { bool: { filter: BOOKABLE_IN_BOSTON } },
      aggs: {
        bedrooms: { terms: { field: 'bedrooms', size: 50, order: { _key: 'asc' } }, aggs: { rent: { avg: { field: 'monthly_rate' } } } },
        neighborhoods: { terms: { field: 'neighborhood_id', size: 5 } },
      },
    });
  });

  it('rounds each average and names the neighborhoods the market knows, most homes first', () => {
    const aggs = {
      bedrooms: {
        buckets: [
          { key: 1, doc_count: 3, rent: { value: 2450.4 } },
          { key: 2, doc_count: 1, rent: { value: null } },
        ],
      },
      neighborhoods: {
        buckets: [
          { key: 'n1', doc_count: 3 },
          { key: 'gone', doc_count: 2 },
          { key: 'n2', doc_count: 1 },
        ],
      },
    };
    expect(shapeMarketInfo(market, 4, aggs)).toEqual({
      market: { slug: 'boston', name: 'Boston', state: 'MA' },
      inventory_count: 4,
      average_rent_by_bedroom: [
        { bedrooms: 1, average_monthly_rent: 2450, apartments: 3 },
        { bedrooms: 2, average_monthly_rent: 0, apartments: 1 },
      ],
      popular_neighborhoods: [
        { id: 'n1', slug: 'back-bay', name: 'Back Bay', available_apartments: 3 },
        { id: 'n2', slug: 'fenway', name: 'Fenway', available_apartments: 1 },
      ],
    });
  });
});

describe('the market searches, as sent', () => {
  /** A service whose Elasticsearch records each request and answers with `answer`. */
  function recording(answer: object) {
    const sent: object[] = [];
    const es = { search: async (request: object) => (sent.push(request), answer) };
    const deps = {
      es,
      config: { homesAlias: 'homes' },
      esNodes: undefined,
      routingKeys: { keyOf: async (slug: string) => `key-of-${slug}` },
      aggregates: new AggregateCache(60_000),
      // No generation to read: the listing is read every time, as with READ_CACHE=false.
      listedPlaces: new GenerationAnswers({ read: async () => null }, { maxBytes: LISTED_PLACES_BYTES, sizeOf: listedPlacesBytes }),
    } as unknown as Deps;
    return { deps, sent };
  }

  it("a market's filters and statistics are routed to the market's shard, trimmed, and loaded once while cached", async () => {
    const { deps, sent } = recording({ hits: { total: { value: 4 } }, aggregations: {} });
    await readMarketFilters(deps, market);
    await readMarketFilters(deps, market);
    expect(await readMarketStats(deps, market)).toEqual(expect.objectContaining({ inventory_count: 4 }));
    expect(sent).toEqual([
      expect.objectContaining({ index: 'homes', routing: 'key-of-boston', allow_partial_search_results: false, ...buildMarketFiltersBody('boston') }),
      expect.objectContaining({ index: 'homes', routing: 'key-of-boston', allow_partial_search_results: false, ...buildMarketInfoBody('boston') }),
    ]);
  });

  it('the listed places search every shard: no routing', async () => {
    const { deps, sent } = recording({ hits: {}, aggregations: { markets: { buckets: [] } } });
    expect((await readListedPlaces(deps)).markets.size).toBe(0);
    expect(sent).toEqual([expect.objectContaining({ index: 'homes', ...buildListedPlacesBody() })]);
    expect(sent[0]).not.toHaveProperty('routing');
  });
});
