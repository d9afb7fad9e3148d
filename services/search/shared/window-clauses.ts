/**
 * The Elasticsearch requests of a search over a window of move-in dates (docs/contract.md, "A window of
 * move-in dates"; docs/search-index.md, "A window of move-in dates"), built by pure functions and
 * tested by their output. A home matches when the stay from one of the window's starts can be
 * booked: a `should` of each start's own stay clauses (./stay-clauses.ts, exact as checkStay).
 * The same per-start clauses, named, come back in each hit's `matched_queries`: the starts its
 * stay can be booked from, which the engine then prices (kernel/engine/best-start.ts).
 *
 * Price limits of fixed stays read the price cells (./indexed-price.ts) of the starts, grouped by
 * cell: a home is surely inside when a start of a cell whose bounds lie inside the limits can be
 * booked, and a candidate when one of a cell whose bounds meet them can. Flex: the tier's price is
 * exact in the index and the same from every start.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { IsoDate } from '../../kernel/inventory/records';
import { stayDatesAt, type StayWindow } from '../../stays/stay-window';
import { hitFields } from './hit-fields';
import { priceBandOf } from './indexed-price';
import { matchClauses, RESULT_SOURCE, STRADDLER_SOURCE, type SearchAggregations, type SortValues } from './search-body';
import { hasPriceLimits, type PriceLimits, type SearchParams } from './search-params';
import { sortClauses } from './sorts';
import { availabilityClauses, bandCandidateClause, bandInsideClause, priceSort } from './stay-clauses';

type Query = estypes.QueryDslQueryContainer;

/** A search over a window: its parameters with the window named. */
export type WindowParams = SearchParams & { window: StayWindow };

const NO_LIMITS: PriceLimits = { min: null, max: null };
const START_PREFIX = 'start:';

/** The stay from `start` can be booked (and, for Flex, the tier is held from it). */
function startClause(w: StayWindow, start: IsoDate, named = false): Query {
  return { bool: { filter: availabilityClauses(stayDatesAt(w, start)), ...(named ? { _name: `${START_PREFIX}${start}` } : {}) } };
}

/** The stay from one of `starts` can be booked. */
export function bookableFrom(w: StayWindow, starts: readonly IsoDate[]): Query {
  return { bool: { should: starts.map((s) => startClause(w, s)), minimum_should_match: 1 } };
}

/** The starts of a hit whose stay can be booked, from its matched named clauses, in order. */
export function bookableStartsOf(hit: { matched_queries?: string[] | Record<string, number> }): IsoDate[] {
  const names = Array.isArray(hit.matched_queries) ? hit.matched_queries : Object.keys(hit.matched_queries ?? {});
  return names
    .filter((n) => n.startsWith(START_PREFIX))
    .map((n) => n.slice(START_PREFIX.length))
    .sort();
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
 * Clauses matching exactly the homes of the window search: every other argument, a bookable start,
 * and for a fixed stay with limits a start in a cell inside them, or a straddler priced and passing.
 */
export function windowFilter(p: WindowParams, starts: readonly IsoDate[], passing?: readonly string[]): Query[] {
  const w = p.window;
  const others = matchClauses({ ...p, stay: { kind: 'undated' }, price: NO_LIMITS, window: null });
  if (w.length.kind === 'flex') {
    return [...others, bookableFrom(w, starts), ...(hasPriceLimits(p.price) ? [flexPriceClause(w.length.committed_nights, p.price)] : [])];
  }
  if (!hasPriceLimits(p.price)) return [...others, bookableFrom(w, starts)];
  const inside = cellsOf(w, starts).map((c) => ({ bool: { filter: [bookableFrom(w, c.starts), bandInsideClause(fixedAt(w, c.starts[0]), p.price)] } }));
  const passed: Query[] = passing && passing.length > 0 ? [{ terms: { home_id: [...passing] } }] : [];
  return [...others, { bool: { should: [...inside, ...passed], minimum_should_match: 1 } }];
}

/** Every start named, so each hit says which of its starts can be booked (they never decide a match). */
function namedStarts(w: StayWindow, starts: readonly IsoDate[]): Pick<estypes.QueryDslBoolQuery, 'should' | 'minimum_should_match'> {
  return { should: starts.map((s) => startClause(w, s, true)), minimum_should_match: 0 };
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
    ...hitFields(STRADDLER_SOURCE),
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
    ...hitFields(RESULT_SOURCE),
    query: { bool: { filter: windowFilter(p, starts, passing), ...namedStarts(w, starts) } },
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
): estypes.SearchRequest {
  const w = p.window;
  return {
    track_total_hits: false,
    size,
    ...hitFields(RESULT_SOURCE),
    query: { bool: { filter: [...windowFilter(p, starts, passing), bookableFrom(w, cellStarts)], ...namedStarts(w, starts) } },
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
    ...hitFields(RESULT_SOURCE),
    query: {
      bool: {
        filter: [...windowFilter(p, starts, passing), startClause(w, starts[index])],
        ...(earlier.length > 0 ? { must_not: [bookableFrom(w, earlier)] } : {}),
        ...namedStarts(w, starts),
      },
    },
    sort: [{ home_id: 'asc' }],
    ...(after ? { search_after: after } : {}),
  };
}
