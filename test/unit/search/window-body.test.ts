/** The requests of a search over a window of move-in dates (search/shared/window-clauses.ts), pinned by their output. */
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { toDayNumber } from '../../../services/kernel/engine/dates';
import { encodeSpans, GAP_SHIFT } from '../../../services/kernel/store/stay-spans';
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

/** The stay spans met by a 45-night stay from a day of `ss` (consecutive days; kernel/store/stay-spans.ts). */
const spans = (ss: string[]) => ({
  nested: {
    path: 'stay_spans',
    query: {
      bool: {
        filter: [
          { range: { 'stay_spans.starts': { gte: day(ss[0]), lte: day(ss[ss.length - 1]), relation: 'intersects' } } },
          { range: { 'stay_spans.ends': { gte: day(ss[0]) + 45, lte: day(ss[ss.length - 1]) + 45, relation: 'intersects' } } },
          { term: { 'stay_spans.nights': 45 } },
        ],
        // No gap of the block holds every move-in day the starts could use (the four readings of a gap).
        must_not: [
          { range: { 'stay_spans.gaps': { gte: day(ss[0]), lte: day(ss[ss.length - 1]), relation: 'contains' } } },
          { range: { 'stay_spans.gaps_end': { gte: day(ss[0]), lte: GAP_SHIFT - 45, relation: 'contains' } } },
          { range: { 'stay_spans.gaps_out': { gte: -45, lte: day(ss[ss.length - 1]), relation: 'contains' } } },
          { range: { 'stay_spans.gaps_out_end': { gte: -45, lte: GAP_SHIFT - 45, relation: 'contains' } } },
        ],
      },
    },
  },
});
const bookable = (ss: string[]) => spans(ss);
/** A hit carrying its spans, each as starts, ends and nights. */
const carrying = (...rows: Array<[[string, string], [string, string], [number, number]]>) => ({
  fields: {
    span_card: [
      encodeSpans(
        rows.map(([s, e, n]) => ({ starts: { gte: day(s[0]), lte: day(s[1]) }, ends: { gte: day(e[0]), lte: day(e[1]) }, nights: { gte: n[0], lte: n[1] } })),
      ),
    ],
  },
});

describe('a window of move-in dates: the requests', () => {
  it('matches the homes whose stay from one of the starts can be booked: one nested query of the stay spans over the starts', () => {
    expect(windowFilter(params(fixedWindow), starts)).toEqual([...IN_MARKET, bookable(starts)]);
  });

  it('a page in an order Elasticsearch applies counts the matches and reads each hit’s spans beside its card', () => {
    expect(windowPageBody(params(fixedWindow), starts, 25, 25)).toEqual({
      track_total_hits: true,
      from: 25,
      size: 25,
      stored_fields: ['_none_'],
      docvalue_fields: ['card', 'span_card'],
      query: { bool: { filter: [...IN_MARKET, bookable(starts)] } },
      sort: [{ created_at: 'desc' }, { home_id: 'asc' }],
    });
  });

  it('reads the starts a hit can be booked from off its spans: each span’s days of the window whose stay ends in it', () => {
    // Move-ins up to Feb 27 with move-outs from Apr 14: only stays of 46 nights or more, so none.
    expect(
      bookableStartsOf(
        carrying([
          ['2027-02-01', '2027-02-27'],
          ['2027-04-14', '2027-05-01'],
          [46, 89],
        ]),
        fixedWindow,
        starts,
      ),
    ).toEqual([]);
    // Move-ins Feb 28 - Mar 10 with move-outs Apr 1 - Apr 14: Feb 28 (ends Apr 14) only.
    expect(
      bookableStartsOf(
        carrying([
          ['2027-02-28', '2027-03-10'],
          ['2027-04-01', '2027-04-14'],
          [22, 45],
        ]),
        fixedWindow,
        starts,
      ),
    ).toEqual(['2027-02-28']);
    // Two spans together: every start once, in order.
    expect(
      bookableStartsOf(
        carrying(
          [
            ['2027-03-01', '2027-03-05'],
            ['2027-04-10', '2027-04-30'],
            [36, 60],
          ],
          [
            ['2027-02-20', '2027-02-27'],
            ['2027-04-13', '2027-04-13'],
            [45, 52],
          ],
        ),
        fixedWindow,
        starts,
      ),
    ).toEqual(['2027-02-27', '2027-03-01']);
    expect(bookableStartsOf({}, fixedWindow, starts)).toEqual([]);
  });

  it('reads a Flex hit’s bookable starts off its named clauses', () => {
    const flexStarts = ['2027-02-27', '2027-02-28'];
    expect(bookableStartsOf({ matched_queries: ['start:2027-02-28', 'start:2027-02-27'] }, flexWindow, flexStarts)).toEqual(flexStarts);
    expect(bookableStartsOf({ matched_queries: { 'start:2027-02-28': 1 } }, flexWindow, flexStarts)).toEqual(['2027-02-28']);
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
    expect(straddlers).toMatchObject({ track_total_hits: false, size: 1000, sort: [{ home_id: 'asc' }] });
    expect(straddlers.docvalue_fields).toContain('span_card');
    expect(straddlers.query?.bool?.should).toBeUndefined();
  });

  it('by price, one stream per cell, sorted by that cell’s bound; by availability, the homes whose first bookable start is each start', () => {
    const p = params(fixedWindow, { sort: 'price_asc' });
    expect(windowCellStreamBody(p, starts, starts.slice(2), 'asc', 75)).toMatchObject({
      size: 75,
      // "a start of the window" is implied by a start of the cell: left out.
      query: { bool: { filter: [...IN_MARKET, bookable(starts.slice(2))] } },
      sort: [{ 'price_lo.202703_30': { order: 'asc', missing: 0, unmapped_type: 'integer' } }, { home_id: 'asc' }],
    });
    expect(windowFirstStartBody(p, starts, 2, 50)).toMatchObject({
      query: {
        bool: {
          filter: [...IN_MARKET, spans(['2027-03-01'])],
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
