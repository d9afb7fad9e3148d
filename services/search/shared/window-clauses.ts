/**
 * The Elasticsearch requests of a search over a window of move-in dates (docs/contract.md, "A window of
 * move-in dates"; docs/search-index.md, "A window of move-in dates"), built by pure functions and
 * tested by their output. A fixed stay's home matches when one of its stay spans (nested blocks of
 * bookable move-in and move-out days, kernel/store/stay-spans.ts) meets the window's starts at its
 * length: one nested query for the whole window, exact as checkStay. Each hit carries its spans (the
 * `span_card` doc value), which give the starts its stay can be booked from; the engine then prices
 * them (kernel/engine/best-start.ts). A Flex stay's home matches when the tier is held from one of
 * the starts: a `should` of each start's nested tier clause, named so each hit says which.
 *
 * Price limits of fixed stays read the price cells (./indexed-price.ts) of the starts, grouped by
 * cell: a home is surely inside when a start of a cell whose bounds lie inside the limits can be
 * booked, and a candidate when one of a cell whose bounds meet them can. Flex: the tier's price is
 * exact in the index and the same from every start.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { IsoDate } from '../../kernel/inventory/records';
import { fromDayNumber, toDayNumber } from '../../kernel/engine/dates';
import { GAP_SHIFT, spanCardStarts } from '../../kernel/store/stay-spans';
import { stayDatesAt, type StayWindow } from '../../stays/stay-window';
import { hitFields } from './hit-fields';
import { priceBandOf } from './indexed-price';
import { matchClauses, RESULT_SOURCE, scoredText, STRADDLER_SOURCE, type SearchAggregations, type SortValues } from './search-body';
import { hasPriceLimits, type PriceLimits, type SearchParams } from './search-params';
import { sortClauses } from './sorts';
import { availabilityClauses, bandCandidateClause, bandInsideClause, priceSort } from './stay-clauses';

type Query = estypes.QueryDslQueryContainer;

/** A search over a window: its parameters with the window named. */
export type WindowParams = SearchParams & { window: StayWindow };

const NO_LIMITS: PriceLimits = { min: null, max: null };
const START_PREFIX = 'start:';
/** The doc value that carries a home's stay spans (kernel/store/stay-spans.ts encodeSpans). */
const SPAN_CARD = 'span_card';
/** Runs of consecutive days among `starts` (in order): a window's starts, a cell's, or one. */
function dayRuns(starts: readonly IsoDate[]): Array<{ first: number; last: number }> {
  const runs: Array<{ first: number; last: number }> = [];
  for (const s of starts) {
    const day = toDayNumber(s);
    const last = runs[runs.length - 1];
    if (last !== undefined && last.last + 1 === day) last.last = day;
    else runs.push({ first: day, last: day });
  }
  return runs;
}

/** A window's starts as runs and by day number, worked out once per search (every hit is read against them). */
const startDays = new WeakMap<readonly IsoDate[], { runs: Array<{ first: number; last: number }>; dateOf: Map<number, IsoDate> }>();
function startDaysOf(starts: readonly IsoDate[]) {
  let known = startDays.get(starts);
  if (known === undefined) {
    known = { runs: dayRuns(starts), dateOf: new Map(starts.map((s) => [toDayNumber(s), s])) };
    startDays.set(starts, known);
  }
  return known;
}

/**
 * A block of stay spans holds a stay of `nights` nights from a day of the run (kernel/store/stay-spans.ts):
 * its hull's three ranges meet the run, and none of its gaps holds every move-in day the run could use. Exact.
 */
function spanFilter(run: { first: number; last: number }, nights: number): Query {
  const inGap = (field: string, gte: number, lte: number): Query => ({ range: { [`stay_spans.${field}`]: { gte, lte, relation: 'contains' } } });
  return {
    bool: {
      filter: [
        { range: { 'stay_spans.starts': { gte: run.first, lte: run.last, relation: 'intersects' } } },
        { range: { 'stay_spans.ends': { gte: run.first + nights, lte: run.last + nights, relation: 'intersects' } } },
        { term: { 'stay_spans.nights': nights } },
      ],
      must_not: [
        inGap('gaps', run.first, run.last),
        inGap('gaps_end', run.first, GAP_SHIFT - nights),
        inGap('gaps_out', -nights, run.last),
        inGap('gaps_out_end', -nights, GAP_SHIFT - nights),
      ],
    },
  };
}

/** A fixed stay from one of `starts` can be booked: one nested query of the stay spans. */
function spansMet(nights: number, starts: readonly IsoDate[]): Query {
  const runs = dayRuns(starts);
  const query: Query = runs.length === 1 ? spanFilter(runs[0], nights) : { bool: { should: runs.map((r) => spanFilter(r, nights)), minimum_should_match: 1 } };
  return { nested: { path: 'stay_spans', query } };
}

/** The Flex tier is held from `start`. */
function flexStartClause(w: StayWindow, start: IsoDate, named = false): Query {
  return { bool: { filter: availabilityClauses(stayDatesAt(w, start)), ...(named ? { _name: `${START_PREFIX}${start}` } : {}) } };
}

/** The stay from one of `starts` can be booked (and, for Flex, the tier is held from it). */
export function bookableFrom(w: StayWindow, starts: readonly IsoDate[]): Query {
  if (w.length.kind === 'fixed') return spansMet(w.length.nights, starts);
  return { bool: { should: starts.map((s) => flexStartClause(w, s)), minimum_should_match: 1 } };
}

interface WindowHitParts {
  matched_queries?: string[] | Record<string, number>;
  fields?: Record<string, unknown>;
}

/** The starts of a hit whose stay can be booked, in order: from its spans (fixed), or its matched named clauses (Flex). */
export function bookableStartsOf(hit: WindowHitParts, w: StayWindow, starts: readonly IsoDate[]): IsoDate[] {
  if (w.length.kind === 'fixed') {
    const card = hit.fields?.[SPAN_CARD];
    if (!Array.isArray(card) || typeof card[0] !== 'string') return [];
    const { runs, dateOf } = startDaysOf(starts);
    return spanCardStarts(card[0], runs, w.length.nights).map((d) => dateOf.get(d) ?? fromDayNumber(d));
  }
  const names = Array.isArray(hit.matched_queries) ? hit.matched_queries : Object.keys(hit.matched_queries ?? {});
  return names
    .filter((n) => n.startsWith(START_PREFIX))
    .map((n) => n.slice(START_PREFIX.length))
    .sort();
}

/** A window's hit fields: the result's (./hit-fields.ts), and a fixed stay's spans beside them. */
function windowHitFields(w: StayWindow, fields: readonly string[]): Pick<estypes.SearchRequest, '_source' | 'docvalue_fields' | 'stored_fields'> {
  const asked = hitFields(fields);
  if (w.length.kind !== 'fixed') return asked;
  return { ...asked, docvalue_fields: [...((asked.docvalue_fields as string[] | undefined) ?? []), SPAN_CARD] };
}

/** A fixed stay's starts grouped by the price cell they read, in order of their first start. */
export function cellsOf(w: StayWindow, starts: readonly IsoDate[]): Array<{ key: string; starts: IsoDate[] }> {
  const cells = new Map<string, IsoDate[]>();
  for (const s of starts) {
    const stay = stayDatesAt(w, s);
    const key = stay.kind === 'fixed' ? priceBandOf(stay).lo : 'flex';
    cells.set(key, [...(cells.get(key) ?? []), s]);
  }
  return [...cells.entries()].map(([key, cellStarts]) => ({ key, starts: cellStarts }));
}

const fixedAt = (w: StayWindow, start: IsoDate) => {
  const stay = stayDatesAt(w, start);
  if (stay.kind !== 'fixed') throw new Error('only a fixed stay has price cells');
  return stay;
};

/** Flex: the tier's price (the same from every start) within the limits. */
function flexPriceClause(committedNights: number, p: PriceLimits): Query {
  const price = { ...(p.min !== null ? { gte: p.min } : {}), ...(p.max !== null ? { lte: p.max } : {}) };
  return {
    nested: {
      path: 'flex_stays',
      query: { bool: { filter: [{ term: { 'flex_stays.committed_nights': committedNights } }, { range: { 'flex_stays.price': price } }] } },
    },
  };
}

/** Whether the window's homes need the straddler pass: fixed stays with price limits. */
export function windowNeedsStraddlers(p: WindowParams): boolean {
  return p.window.length.kind === 'fixed' && hasPriceLimits(p.price);
}

/**
 * The clauses of the window search in three parts: every other argument; "a start of the window can
 * be booked" (null when the price limits ask more of the starts); the price limits.
 */
function windowParts(p: WindowParams, starts: readonly IsoDate[], passing?: readonly string[]): { others: Query[]; bookable: Query | null; price: Query[] } {
  const w = p.window;
  const others = matchClauses({ ...p, stay: { kind: 'undated' }, price: NO_LIMITS, window: null });
  if (w.length.kind === 'flex') {
    return { others, bookable: bookableFrom(w, starts), price: hasPriceLimits(p.price) ? [flexPriceClause(w.length.committed_nights, p.price)] : [] };
  }
  if (!hasPriceLimits(p.price)) return { others, bookable: bookableFrom(w, starts), price: [] };
  // Fixed stays with limits: a start in a cell whose bounds lie inside them, or a straddler priced and passing.
  const inside = cellsOf(w, starts).map((c) => ({ bool: { filter: [bookableFrom(w, c.starts), bandInsideClause(fixedAt(w, c.starts[0]), p.price)] } }));
  const passed: Query[] = passing && passing.length > 0 ? [{ terms: { home_id: [...passing] } }] : [];
  return { others, bookable: null, price: [{ bool: { should: [...inside, ...passed], minimum_should_match: 1 } }] };
}

/**
 * Clauses matching exactly the homes of the window search: every other argument, a bookable start,
 * and for a fixed stay with limits a start in a cell inside them, or a straddler priced and passing.
 */
export function windowFilter(p: WindowParams, starts: readonly IsoDate[], passing?: readonly string[]): Query[] {
  const { others, bookable, price } = windowParts(p, starts, passing);
  return [...others, ...(bookable ? [bookable] : []), ...price];
}

/**
 * windowFilter for a request that also requires a start of `narrower` (a cell's starts, or one
 * start): "a start of the window can be booked" is implied then and left out (Elasticsearch would
 * evaluate it over every home of the place).
 */
function windowFilterWith(p: WindowParams, starts: readonly IsoDate[], narrower: Query, passing?: readonly string[]): Query[] {
  const { others, bookable, price } = windowParts(p, starts, passing);
  return bookable ? [...others, narrower, ...price] : [...others, ...price, narrower];
}

/** Flex: every start named, so each hit says which its tier is held from (they never decide a match). A fixed stay's hits carry their spans instead. */
function namedStarts(w: StayWindow, starts: readonly IsoDate[]): Pick<estypes.QueryDslBoolQuery, 'should' | 'minimum_should_match'> {
  if (w.length.kind === 'fixed') return {};
  return { should: starts.map((s) => flexStartClause(w, s, true)), minimum_should_match: 0 };
}

/** The count (and the caller's aggregations) of the matching homes. */
export function windowCountBody(p: WindowParams, starts: readonly IsoDate[], passing?: readonly string[], aggs?: SearchAggregations): estypes.SearchRequest {
  return { track_total_hits: true, size: 0, query: { bool: { filter: windowFilter(p, starts, passing) } }, ...(aggs ? { aggs } : {}) };
}

/** Fixed stays with limits: homes with a start in a cell whose bounds meet the limits, but none in a cell inside them. */
export function windowStraddlersBody(p: WindowParams, starts: readonly IsoDate[], size: number, after?: SortValues): estypes.SearchRequest {
  const w = p.window;
  const others = matchClauses({ ...p, stay: { kind: 'undated' }, price: NO_LIMITS, window: null });
  const cells = cellsOf(w, starts);
  const candidate = cells.map((c) => ({ bool: { filter: [bookableFrom(w, c.starts), bandCandidateClause(fixedAt(w, c.starts[0]), p.price)] } }));
  const inside = cells.map((c) => ({ bool: { filter: [bookableFrom(w, c.starts), bandInsideClause(fixedAt(w, c.starts[0]), p.price)] } }));
  return {
    track_total_hits: false,
    size,
    ...windowHitFields(w, STRADDLER_SOURCE),
    query: {
      bool: {
        filter: [...others, { bool: { should: candidate, minimum_should_match: 1 } }],
        must_not: inside,
        ...namedStarts(w, starts),
      },
    },
    sort: [{ home_id: 'asc' }],
    ...(after ? { search_after: after } : {}),
  };
}

/** Flex sorted by price: the tier's price, exact in the index. */
function flexPriceSort(committedNights: number, order: 'asc' | 'desc'): estypes.SortCombinations {
  return {
    'flex_stays.price': { order, mode: 'min', nested: { path: 'flex_stays', filter: { term: { 'flex_stays.committed_nights': committedNights } } } },
  };
}

/** One page in an order Elasticsearch applies itself (newest, rating_desc, a Flex tier's price), with the total and the caller's aggregations. */
export function windowPageBody(
  p: WindowParams,
  starts: readonly IsoDate[],
  from: number,
  size: number,
  passing?: readonly string[],
  aggs?: SearchAggregations,
): estypes.SearchRequest {
  const w = p.window;
  const byPrice = (order: 'asc' | 'desc') =>
    w.length.kind === 'flex' ? flexPriceSort(w.length.committed_nights, order) : priceSort(stayDatesAt(w, w.earliest), order);
  return {
    track_total_hits: true,
    from,
    size,
    ...windowHitFields(w, RESULT_SOURCE),
    // Ordered by relevance, q's clause is scored beside the filter (which holds it too: a window's filter is built whole).
    query: { bool: { filter: windowFilter(p, starts, passing), ...namedStarts(w, starts), ...scoredText(p) } },
    sort: sortClauses(p.sort, byPrice),
    ...(aggs ? { aggs } : {}),
  };
}

/**
 * Fixed stays by price: the homes with a bookable start in one cell, by that cell's bound (the lower
 * bound ascending, the upper descending). Merged over the cells, the streams give every home in an
 * order no chosen price can break (a home's chosen price lies between its cells' bounds).
 */
export function windowCellStreamBody(
  p: WindowParams,
  starts: readonly IsoDate[],
  cellStarts: readonly IsoDate[],
  order: 'asc' | 'desc',
  size: number,
  passing?: readonly string[],
  after?: SortValues,
  count?: { aggs?: SearchAggregations },
): estypes.SearchRequest {
  const w = p.window;
  return {
    // A window in one cell: its stream's first batch counts every match (and carries the caller's aggregations).
    track_total_hits: count !== undefined,
    ...(count?.aggs ? { aggs: count.aggs } : {}),
    size,
    ...windowHitFields(w, RESULT_SOURCE),
    query: { bool: { filter: windowFilterWith(p, starts, bookableFrom(w, cellStarts), passing), ...namedStarts(w, starts) } },
    sort: [priceSort(fixedAt(w, cellStarts[0]), order), { home_id: 'asc' }],
    ...(after ? { search_after: after } : {}),
  };
}

/**
 * Sorted by availability: the homes whose first bookable start is `starts[index]` (a stay from it
 * can be booked, from no earlier start), by home id. No chosen start comes before a home's first.
 */
export function windowFirstStartBody(
  p: WindowParams,
  starts: readonly IsoDate[],
  index: number,
  size: number,
  passing?: readonly string[],
  after?: SortValues,
): estypes.SearchRequest {
  const w = p.window;
  const earlier = starts.slice(0, index);
  return {
    track_total_hits: false,
    size,
    ...windowHitFields(w, RESULT_SOURCE),
    query: {
      bool: {
        filter: windowFilterWith(p, starts, bookableFrom(w, [starts[index]]), passing),
        ...(earlier.length > 0 ? { must_not: [bookableFrom(w, earlier)] } : {}),
        ...namedStarts(w, starts),
      },
    },
    sort: [{ home_id: 'asc' }],
    ...(after ? { search_after: after } : {}),
  };
}
