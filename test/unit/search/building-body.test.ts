/** The building search's Elasticsearch requests, pinned by their output for its main inputs (undated and dated, each order, paging). */
import {
  buildingSortClauses,
  collapsedPageBody,
  countsBody,
  hotCitiesBody,
  otherDatesBody,
  priceMetric,
  unitsBody,
} from '../../../services/search/buildings/building-body';
import { minimumKeys } from '../../../services/kernel/store/minimum-keys';
import { toDayNumber as day } from '../../../services/kernel/engine/dates';

const FILTER = [{ term: { bookable: true } }, { term: { market_slug: 'boston' } }];
const CARD = { stored_fields: ['_none_'], docvalue_fields: ['card'] };
const fixed = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 } as const;
const flexAnyTier = { kind: 'flex', start_date: '2027-03-01', committed_nights: null } as const;
const flex90 = { ...flexAnyTier, committed_nights: 90 } as const;
const UNIT_SOURCE = [
  'home_id',
  'slug',
  'unit_number',
  'property_id',
  'bedrooms',
  'bathrooms',
  'sqft',
  'earliest_available_date',
  'hero_photo_id',
  'pricing',
  'reference_price',
];

/** The counts' aggregations, buildings listed under `listed`. */
const counts = (listed: string) => ({
  [listed]: { terms: { field: 'property_id', size: 20_000 } },
  building_total: { stats_bucket: { buckets_path: `${listed}>_count` } },
  building_estimate: { cardinality: { field: 'property_id', precision_threshold: 40_000 } },
});

describe('the price a building search orders by', () => {
  it('undated or a move-in date alone: the least reference price; Flex: the least held tier, nested; a fixed stay: none in the index', () => {
    expect(priceMetric({ kind: 'undated' })).toEqual({ aggs: { price: { min: { field: 'reference_price.with_discount' } } }, path: 'price' });
    expect(priceMetric({ kind: 'start_only', start_date: '2027-03-01' })?.path).toBe('price');
    expect(priceMetric(flex90)).toEqual({
      aggs: {
        flex: {
          nested: { path: 'flex_stays' },
          aggs: {
            held: {
              filter: { bool: { filter: [{ term: { 'flex_stays.move_in': day('2027-03-01') } }, { term: { 'flex_stays.committed_nights': 90 } }] } },
              aggs: { price: { min: { field: 'flex_stays.price' } } },
            },
          },
        },
      },
      path: 'flex>held>price',
    });
    expect(priceMetric(fixed)).toBeNull();
  });
});

describe('countsBody', () => {
  it('an order ES applies by collapse: the matching units counted exactly, the buildings tallied (their buckets dropped by the transport)', () => {
    expect(countsBody(FILTER, { unitsPerBuilding: false })).toEqual({
      size: 0,
      track_total_hits: true,
      query: { bool: { filter: FILTER } },
      aggs: counts('tally'),
    });
  });

  it('a fixed stay by price, descending: every building listed with its matching units', () => {
    expect(countsBody(FILTER, { unitsPerBuilding: true }).aggs).toEqual(counts('units_per_building'));
  });

  it('an indexed price order, page 2 of 10 descending: the first 20 buildings by their cheapest unit, ties by id', () => {
    const metric = priceMetric({ kind: 'undated' })!;
    expect(countsBody(FILTER, { unitsPerBuilding: false, pricePage: { order: 'desc', size: 20, metric } }).aggs).toEqual({
      ...counts('tally'),
      by_price: {
        terms: { field: 'property_id', size: 20, order: [{ price: 'desc' }, { _key: 'asc' }] },
        aggs: { price: { min: { field: 'reference_price.with_discount' } } },
      },
    });
  });
});

describe('a page of buildings by collapse', () => {
  const TIE = { property_id: 'asc' };
  it('recommended: offers first, then the best rated (unrated last), then the cheapest reference price; one unit per building', () => {
    expect(collapsedPageBody(FILTER, buildingSortClauses('recommended', null), 10, 10)).toEqual({
      track_total_hits: false,
      from: 10,
      size: 10,
      ...CARD,
      query: { bool: { filter: FILTER } },
      collapse: { field: 'property_id' },
      sort: [{ has_active_offer: 'desc' }, { rating_average: { order: 'desc', missing: '_last' } }, { 'reference_price.with_discount': 'asc' }, TIE],
    });
  });

  it('rating_desc: unrated last, more ratings first; distance: the nearest unit, in miles along the arc, else recommended', () => {
    expect(buildingSortClauses('rating_desc', null)).toEqual([{ rating_average: { order: 'desc', missing: '_last' } }, { rating_count: 'desc' }, TIE]);
    expect(buildingSortClauses('distance', { lat: 42.36, lon: -71.06 })).toEqual([
      { _geo_distance: { location: { lat: 42.36, lon: -71.06 }, order: 'asc', unit: 'mi', distance_type: 'arc' } },
      TIE,
    ]);
    expect(buildingSortClauses('distance', null)).toEqual(buildingSortClauses('recommended', null));
  });
});

describe("the units of a page's buildings", () => {
  it('the first batch: matching units of the buildings, from the card, in id order', () => {
    expect(unitsBody(FILTER, ['p1', 'p2'], { kind: 'undated' })).toEqual({
      track_total_hits: false,
      size: 2_000,
      ...CARD,
      query: { bool: { filter: [...FILTER, { terms: { property_id: ['p1', 'p2'] } }] } },
      sort: [{ home_id: 'asc' }],
    });
  });

  it('a later batch continues after the last unit; a Flex stay without a tier reads the tiers, so the source', () => {
    expect(unitsBody(FILTER, ['p1'], fixed, ['home-000042']).search_after).toEqual(['home-000042']);
    const flex = unitsBody(FILTER, ['p1'], flexAnyTier);
    expect(flex._source).toEqual([...UNIT_SOURCE, 'flex_stays']);
    expect(flex).not.toHaveProperty('docvalue_fields');
    expect(unitsBody(FILTER, ['p1'], flex90)).toEqual(expect.objectContaining(CARD));
  });

  it('units open at other dates: the search without its stay, less the homes that can host it, the five soonest per building', () => {
    const start = day('2027-03-01');
    const end = day('2027-04-15');
    expect(otherDatesBody(FILTER, fixed, ['p1', 'p2'])).toEqual({
      size: 0,
      query: {
        bool: {
          filter: [...FILTER, { terms: { property_id: ['p1', 'p2'] } }],
          must_not: [
            {
              bool: {
                filter: [
                  { term: { move_ins: start } },
                  { terms: { minimum_keys: minimumKeys('2027-03-01', 45) } },
                  { range: { open_windows: { gte: start, lt: end, relation: 'contains' } } },
                  { term: { move_outs: end } },
                ],
              },
            },
          ],
        },
      },
      aggs: {
        other_dates: {
          terms: { field: 'property_id', size: 2 },
          aggs: {
            soonest: {
              top_hits: {
                size: 5,
                sort: [{ earliest_available_date: { order: 'asc', missing: '_last' } }, { home_id: 'asc' }],
                ...CARD,
              },
            },
          },
        },
      },
    });
  });
});

describe('the hot cities lookup', () => {
  it('no hits: the cities with the most matching units', () => {
    expect(hotCitiesBody(FILTER, 3)).toEqual({ size: 0, query: { bool: { filter: FILTER } }, aggs: { cities: { terms: { field: 'city_slug', size: 3 } } } });
  });
});
