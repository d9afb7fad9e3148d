/** buildSearchBody: the exact Elasticsearch request of each search step, pinned by its output (STYLE: Vendure). */
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { aggregationsApart, buildSearchBody, matchClauses, pageSort } from '../../../services/search/shared/search-body';
import { displayLimits, type SearchParams } from '../../../services/search/shared/search-params';
import { minimumKeys } from '../../../services/kernel/store/minimum-keys';
import { toDayNumber } from '../../../services/kernel/engine/dates';

/** A day number, as the index's range fields hold dates. */
const day = toDayNumber;

const market = {
  slug: 'boston',
  cities: [{ slug: 'cambridge', name: 'Cambridge', state: 'MA', latitude: 42.37, longitude: -71.11 }],
} as unknown as MarketRecord;
const inMarket = { market, city: null };
const inCity = { market, city: market.cities[0] };

const base: SearchParams = { location: inMarket, filters: {}, stay: { kind: 'undated' }, price: { min: null, max: null }, minRating: null, sort: 'price_asc' };
const fixed = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 } as const;

const BOOKABLE_IN_MARKET = [{ term: { bookable: true } }, { term: { market_slug: 'boston' } }];
// A fixed stay or a move-in date alone: its stay clauses admit bookable homes only, so no `bookable` clause.
const IN_MARKET = [{ term: { market_slug: 'boston' } }];
// A stay of 45 nights moving in on 2027-03-01: its move-in date, the minimum keys of that date and length, its nights inside a window, its move-out date.
const stayStarts = [
  { term: { move_ins: day('2027-03-01') } },
  { terms: { minimum_keys: minimumKeys('2027-03-01', 45) } },
  { range: { open_windows: { gte: day('2027-03-01'), lt: day('2027-04-15'), relation: 'contains' } } },
];
const moveOut = { term: { move_outs: day('2027-04-15') } };
// Its price cell: move-in month March 2027, stays of 30 to 59 nights.
const LO = 'price_lo.202703_30';
const HI = 'price_hi.202703_30';
const hasCell = { exists: { field: LO } };
const CARD = { stored_fields: ['_none_'], docvalue_fields: ['card'] };

describe('buildSearchBody', () => {
  it('undated market search: bookable homes of the market, exact reference-price order, one page with the exact total', () => {
    expect(buildSearchBody(base, { kind: 'page', from: 25, size: 25 })).toEqual({
      track_total_hits: true,
      from: 25,
      size: 25,
      ...CARD,
      query: { bool: { filter: BOOKABLE_IN_MARKET } },
      sort: [{ 'reference_price.with_discount': 'asc' }, { home_id: 'asc' }],
    });
  });

  it('undated price limits are exact range clauses on the reference price', () => {
    const body = buildSearchBody({ ...base, price: { min: 2000, max: 3500 } }, { kind: 'page', from: 0, size: 25 });
    expect(body.query).toEqual({ bool: { filter: [...BOOKABLE_IN_MARKET, { range: { 'reference_price.with_discount': { gte: 2000, lte: 3500 } } }] } });
  });

  it('a city search with filters, rating and a radius: every clause a filter, the circle a geo_distance', () => {
    const p: SearchParams = {
      ...base,
      location: inCity,
      filters: { min_bedrooms: 1, pool: true, near_latitude: 42.37, near_longitude: -71.11 },
      minRating: 4.5,
      sort: 'rating_desc',
    };
    expect(matchClauses(p)).toEqual([
      { term: { bookable: true } },
      { term: { city_slug: 'cambridge' } },
      { range: { bedrooms: { gte: 1, lte: undefined } } },
      { term: { has_pool: true } },
      { geo_distance: { distance: '5mi', location: { lat: 42.37, lon: -71.11 } } },
      { range: { rating_average: { gte: 4.5 } } },
    ]);
    // rating_desc: unrated last, then more ratings first, then the id.
    expect(pageSort(p)).toEqual([{ rating_average: { order: 'desc', missing: '_last' } }, { rating_count: 'desc' }, { home_id: 'asc' }]);
  });

  it('a fixed stay: move-in date in a window with a minimum it meets, long enough window, allowed move-out date', () => {
    const body = buildSearchBody({ ...base, stay: fixed, sort: 'newest' }, { kind: 'page', from: 0, size: 25 });
    expect(body.query).toEqual({ bool: { filter: [...IN_MARKET, ...stayStarts, moveOut] } });
    expect(body.sort).toEqual([{ created_at: 'desc' }, { home_id: 'asc' }]);
  });

  it('a move-in date alone: homes a fixed stay can start in on that date', () => {
    expect(matchClauses({ ...base, stay: { kind: 'start_only', start_date: '2027-03-01' } })).toEqual([
      ...IN_MARKET,
      { term: { fixed_move_ins: day('2027-03-01') } },
    ]);
  });

  it('fixed stay with limits, straddlers: the band can meet the limits (or is missing) but does not lie inside them', () => {
    const p: SearchParams = { ...base, stay: fixed, price: { min: 2500, max: 4000 } };
    expect(buildSearchBody(p, { kind: 'straddlers', size: 1000, after: [42, 'home-000042'] })).toEqual({
      track_total_hits: false,
      size: 1000,
      stored_fields: ['_none_'],
      docvalue_fields: ['card'],
      query: {
        bool: {
          filter: [
            ...IN_MARKET,
            ...stayStarts,
            moveOut,
            {
              bool: {
                should: [{ bool: { filter: [{ range: { [LO]: { lte: 4000 } } }, { range: { [HI]: { gte: 2500 } } }] } }, { bool: { must_not: [hasCell] } }],
                minimum_should_match: 1,
              },
            },
          ],
          must_not: [{ bool: { filter: [hasCell, { range: { [LO]: { gte: 2500 } } }, { range: { [HI]: { lte: 4000 } } }] } }],
        },
      },
      sort: [{ home_id: 'asc' }],
      search_after: [42, 'home-000042'],
    });
  });

  it('fixed stay with limits, page: inside by the band, or one of the straddlers priced and passing', () => {
    const p: SearchParams = { ...base, stay: fixed, price: { min: null, max: 4000 }, sort: 'availability' };
    const body = buildSearchBody(p, { kind: 'page', from: 0, size: 25, passing: ['home-000007'] });
    expect(body.query).toEqual({
      bool: {
        filter: [
          ...IN_MARKET,
          ...stayStarts,
          moveOut,
          {
            bool: {
              should: [{ bool: { filter: [hasCell, { range: { [HI]: { lte: 4000 } } }] } }, { terms: { home_id: ['home-000007'] } }],
              minimum_should_match: 1,
            },
          },
        ],
      },
    });
    expect(body.sort).toEqual([{ earliest_available_date: { order: 'asc', missing: '_last' } }, { home_id: 'asc' }]);
  });

  it('fixed stay by price: the stream sorted by the bound of the price cell of that move-in month and length', () => {
    const asc = buildSearchBody({ ...base, stay: fixed }, { kind: 'price_stream', size: 45, withTotal: true });
    expect(asc.track_total_hits).toBe(true);
    expect(asc.sort).toEqual([{ [LO]: { order: 'asc', missing: 0, unmapped_type: 'integer' } }, { home_id: 'asc' }]);
    const desc = buildSearchBody({ ...base, stay: fixed, sort: 'price_desc' }, { kind: 'price_stream', size: 90, after: [3100, 'home-1'], withTotal: false });
    expect(desc).toMatchObject({
      track_total_hits: false,
      search_after: [3100, 'home-1'],
      sort: [{ [HI]: { order: 'desc', missing: 2_000_000_000, unmapped_type: 'integer' } }, { home_id: 'asc' }],
    });
  });

  it('Flex with a tier: the tier held from the date, exact price limits and order on that tier', () => {
    const p: SearchParams = { ...base, stay: { kind: 'flex', start_date: '2027-03-01', committed_nights: 270 }, price: { min: null, max: 3000 } };
    const tier = [{ term: { 'flex_stays.move_in': day('2027-03-01') } }, { term: { 'flex_stays.committed_nights': 270 } }];
    expect(matchClauses(p)).toEqual([
      ...BOOKABLE_IN_MARKET,
      { nested: { path: 'flex_stays', query: { bool: { filter: tier } } } },
      { nested: { path: 'flex_stays', query: { bool: { filter: [...tier, { range: { 'flex_stays.price': { lte: 3000 } } }] } } } },
    ]);
    expect(pageSort(p)).toEqual([
      { 'flex_stays.price': { order: 'asc', mode: 'min', nested: { path: 'flex_stays', filter: { bool: { filter: tier } } } } },
      { home_id: 'asc' },
    ]);
  });

  it('Flex without a tier: the cheapest tier held counts, so min_price means no tier below it', () => {
    const p: SearchParams = { ...base, stay: { kind: 'flex', start_date: '2027-03-01', committed_nights: null }, price: { min: 2500, max: 3000 } };
    const any = [{ term: { 'flex_stays.move_in': day('2027-03-01') } }];
    expect(matchClauses(p).slice(2)).toEqual([
      { nested: { path: 'flex_stays', query: { bool: { filter: any } } } },
      { nested: { path: 'flex_stays', query: { bool: { filter: [...any, { range: { 'flex_stays.price': { lte: 3000 } } }] } } } },
      { bool: { must_not: [{ nested: { path: 'flex_stays', query: { bool: { filter: [...any, { range: { 'flex_stays.price': { lt: 2500 } } }] } } } }] } },
    ]);
  });

  it('fetches the Flex tiers only for a Flex search without a tier, the one price that needs them; every other page reads the card', () => {
    const any = buildSearchBody({ ...base, stay: { kind: 'flex', start_date: '2027-03-01', committed_nights: null } }, { kind: 'page', from: 0, size: 5 });
    const tier = buildSearchBody({ ...base, stay: { kind: 'flex', start_date: '2027-03-01', committed_nights: 180 } }, { kind: 'page', from: 0, size: 5 });
    expect(any._source).toContain('flex_stays');
    expect(any.docvalue_fields).toBeUndefined();
    expect(tier).toMatchObject(CARD);
    expect(buildSearchBody(base, { kind: 'page', from: 0, size: 5 })).toMatchObject(CARD);
  });

  it('refuses to build a straddler request for a stay without price bands', () => {
    expect(() => buildSearchBody(base, { kind: 'straddlers', size: 10 })).toThrow();
  });
});

describe('displayLimits (price_unit)', () => {
  it('keeps limits in the unit the price is shown in, converts the other by 30 (a monthly limit rounded inward)', () => {
    expect(displayLimits(100, 200, 'per_night', 'per_night')).toEqual({ min: 100, max: 200 });
    // A nightly limit against a monthly price is on its thirtieth, cents dropped: $200 a night admits $6,029 a month.
    expect(displayLimits(100, 200, 'per_night', 'per_month')).toEqual({ min: 3000, max: 6029 });
    expect(displayLimits(3001, 6029, 'per_month', 'per_night')).toEqual({ min: 101, max: 200 });
    expect(displayLimits(undefined, 4000, 'per_month', 'per_month')).toEqual({ min: null, max: 4000 });
  });
});

describe('aggregationsApart', () => {
  const body = buildSearchBody(
    { location: null, filters: {}, stay: { kind: 'undated' }, price: { min: null, max: null }, minRating: null, sort: 'price_asc' },
    { kind: 'page', from: 0, size: 250, aggs: { cheapest: { min: { field: 'reference_price.with_discount' } } } },
  );

  it('keeps the page of hits in one search, without aggregations or total, and counts the same query in the other', () => {
    const [hits, counting] = aggregationsApart(body);
    const { aggs, ...rest } = body;
    expect(hits).toEqual({ ...rest, track_total_hits: false });
    expect(counting).toEqual({ size: 0, track_total_hits: true, query: body.query, aggs });
  });

  it('counts no total where the request asked none (a later batch of a stream)', () => {
    expect(aggregationsApart({ ...body, track_total_hits: false })[1].track_total_hits).toBe(false);
  });

  it('keeps in the counting search whatever decides the matching homes, and leaves out only what shapes the hits', () => {
    const [, counting] = aggregationsApart({ ...body, routing: 'key-of-boston', min_score: 1, search_after: [1, 'home-1'] });
    expect(counting).toEqual({ query: body.query, routing: 'key-of-boston', min_score: 1, size: 0, track_total_hits: true, aggs: body.aggs });
  });

  it('refuses a request whose hits a post_filter or a collapse narrows after its aggregations', () => {
    expect(() => aggregationsApart({ ...body, post_filter: { term: { bedrooms: 2 } } })).toThrow();
    expect(() => aggregationsApart({ ...body, collapse: { field: 'property_id' } })).toThrow();
  });

  it('refuses a request without aggregations', () => {
    const { aggs: _aggs, ...plain } = body;
    expect(() => aggregationsApart(plain)).toThrow();
  });
});
