/** The requests of a search over a window of move-in dates (search/shared/window-clauses.ts), pinned by their output. */
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { toDayNumber } from '../../../services/kernel/engine/dates';
import { minimumKeys } from '../../../services/kernel/store/minimum-keys';
import {
  bookableStartsOf,
  cellsOf,
  windowCellStreamBody,
  windowCountBody,
  windowFilter,
  windowFirstStartBody,
  windowPageBody,
  windowStraddlersBody,
  type WindowParams,
} from '../../../services/search/shared/window-clauses';
import type { StayWindow } from '../../../services/stays/stay-window';

const day = toDayNumber;
const market = { slug: 'boston', cities: [] } as unknown as MarketRecord;
const IN_MARKET = [{ term: { bookable: true } }, { term: { market_slug: 'boston' } }];
const CARD = { stored_fields: ['_none_'], docvalue_fields: ['card'] };

const fixedWindow: StayWindow = { earliest: '2027-02-27', latest: '2027-03-01', length: { kind: 'fixed', nights: 45 } };
const flexWindow: StayWindow = { earliest: '2027-02-27', latest: '2027-02-28', length: { kind: 'flex', committed_nights: 180 } };
const starts = ['2027-02-27', '2027-02-28', '2027-03-01'];

const params = (window: StayWindow, over: Partial<WindowParams> = {}): WindowParams => ({
  location: { market, city: null },
  filters: {},
  stay: { kind: 'undated' },
  window,
  price: { min: null, max: null },
  minRating: null,
  sort: 'newest',
  ...over,
});

/** The four clauses of a 45-night stay from `s` (search/shared/stay-clauses.ts). */
const fixedAt = (s: string, end: string) => [
  { term: { move_ins: day(s) } },
  { terms: { minimum_keys: minimumKeys(s, 45) } },
  { range: { open_windows: { gte: day(s), lt: day(end), relation: 'contains' } } },
  { term: { move_outs: day(end) } },
];
const ends: Record<string, string> = { '2027-02-27': '2027-04-13', '2027-02-28': '2027-04-14', '2027-03-01': '2027-04-15' };
const bookable = (ss: string[]) => ({ bool: { should: ss.map((s) => ({ bool: { filter: fixedAt(s, ends[s]) } })), minimum_should_match: 1 } });
const named = (ss: string[]) => ({ should: ss.map((s) => ({ bool: { filter: fixedAt(s, ends[s]), _name: `start:${s}` } })), minimum_should_match: 0 });

describe('a window of move-in dates: the requests', () => {
  it('matches the homes whose stay from one of the starts can be booked: a should of each start’s four stay clauses', () => {
    expect(windowFilter(params(fixedWindow), starts)).toEqual([...IN_MARKET, bookable(starts)]);
  });

  it('a page in an order Elasticsearch applies counts the matches and names every start, so each hit says its bookable starts', () => {
    expect(windowPageBody(params(fixedWindow), starts, 25, 25)).toEqual({
      track_total_hits: true,
      from: 25,
      size: 25,
      ...CARD,
      query: { bool: { filter: [...IN_MARKET, bookable(starts)], ...named(starts) } },
      sort: [{ created_at: 'desc' }, { home_id: 'asc' }],
    });
    expect(bookableStartsOf({ matched_queries: ['start:2027-03-01', 'start:2027-02-27'] })).toEqual(['2027-02-27', '2027-03-01']);
    expect(bookableStartsOf({ matched_queries: { 'start:2027-02-28': 1 } })).toEqual(['2027-02-28']);
  });

  it('groups the starts by price cell (two months of move-ins): February and March 2027 read two', () => {
    expect(cellsOf(fixedWindow, starts)).toEqual([
      { key: 'price_lo.202701_30', starts: ['2027-02-27', '2027-02-28'] },
      { key: 'price_lo.202703_30', starts: ['2027-03-01'] },
    ]);
  });

  it('price limits of fixed stays: a start in a cell inside the limits, or a straddler priced and passing', () => {
    const p = params(fixedWindow, { price: { min: null, max: 3000 } });
    const inside = (cell: string, ss: string[]) => ({
      bool: { filter: [bookable(ss), { bool: { filter: [{ exists: { field: `price_lo.${cell}` } }, { range: { [`price_hi.${cell}`]: { lte: 3000 } } }] } }] },
    });
    expect(windowFilter(p, starts, ['home-7'])).toEqual([
      ...IN_MARKET,
      {
        bool: {
          should: [inside('202701_30', starts.slice(0, 2)), inside('202703_30', starts.slice(2)), { terms: { home_id: ['home-7'] } }],
          minimum_should_match: 1,
        },
      },
    ]);
    const straddlers = windowStraddlersBody(p, starts, 1000);
    expect(straddlers.query?.bool?.must_not).toEqual([inside('202701_30', starts.slice(0, 2)), inside('202703_30', starts.slice(2))]);
    expect(straddlers).toMatchObject({ track_total_hits: false, size: 1000, sort: [{ home_id: 'asc' }], query: { bool: named(starts) } });
  });

  it('by price, one stream per cell, sorted by that cell’s bound; by availability, the homes whose first bookable start is each start', () => {
    const p = params(fixedWindow, { sort: 'price_asc' });
    expect(windowCellStreamBody(p, starts, starts.slice(2), 'asc', 75)).toMatchObject({
      size: 75,
      query: { bool: { filter: [...IN_MARKET, bookable(starts), bookable(starts.slice(2))] } },
      sort: [{ 'price_lo.202703_30': { order: 'asc', missing: 0, unmapped_type: 'integer' } }, { home_id: 'asc' }],
    });
    expect(windowFirstStartBody(p, starts, 2, 50)).toMatchObject({
      query: {
        bool: {
          filter: [...IN_MARKET, bookable(starts), { bool: { filter: fixedAt('2027-03-01', '2027-04-15') } }],
          must_not: [bookable(starts.slice(0, 2))],
        },
      },
      sort: [{ home_id: 'asc' }],
    });
    expect(windowFirstStartBody(p, starts, 0, 50).query?.bool?.must_not).toBeUndefined();
  });

  it('Flex: each start is the tier held from it (nested); the tier price, the same from every start, limits and sorts exactly', () => {
    const held = (s: string) => ({
      nested: {
        path: 'flex_stays',
        query: { bool: { filter: [{ term: { 'flex_stays.move_in': day(s) } }, { term: { 'flex_stays.committed_nights': 180 } }] } },
      },
    });
    const p = params(flexWindow, { price: { min: 2000, max: null }, sort: 'price_asc' });
    const flexStarts = ['2027-02-27', '2027-02-28'];
    const priced = {
      nested: {
        path: 'flex_stays',
        query: { bool: { filter: [{ term: { 'flex_stays.committed_nights': 180 } }, { range: { 'flex_stays.price': { gte: 2000 } } }] } },
      },
    };
    expect(windowFilter(p, flexStarts)).toEqual([
      ...IN_MARKET,
      { bool: { should: flexStarts.map((s) => ({ bool: { filter: [held(s)] } })), minimum_should_match: 1 } },
      priced,
    ]);
    expect(windowPageBody(p, flexStarts, 0, 25).sort).toEqual([
      { 'flex_stays.price': { order: 'asc', mode: 'min', nested: { path: 'flex_stays', filter: { term: { 'flex_stays.committed_nights': 180 } } } } },
      { home_id: 'asc' },
    ]);
  });

  it('the count carries the caller’s aggregations (the map’s clusters)', () => {
    const aggs = { clusters: { geotile_grid: { field: 'location', precision: 8 } } };
    expect(windowCountBody(params(fixedWindow), starts, undefined, aggs)).toEqual({
      track_total_hits: true,
      size: 0,
      query: { bool: { filter: [...IN_MARKET, bookable(starts)] } },
      aggs,
    });
  });
});
