/**
 * The apartment search over a window of move-in dates (docs/contract.md, "A window of move-in dates"):
 * one page of the homes that have a stay from some start of the window (within min_price/max_price
 * when given), each with its chosen stay, the cheapest start (ties to the earliest), in the search's
 * order, with the exact total. Elasticsearch decides which starts each home can be booked from
 * (../shared/window-clauses.ts) and counts; the engine prices the starts of the homes a page, a
 * straddling price limit or an order needs, each home once (kernel/engine/best-start.ts).
 */
import { DEFAULT_SEARCH_MAX_PRICED } from '../../kernel/config';
import { bestStay, type ChosenStay } from '../../kernel/engine/best-start';
import { daysBetween } from '../../kernel/engine/dates';
import type { IsoDate } from '../../kernel/inventory/records';
import { windowStarts } from '../../stays/stay-window';
import type { SearchStats } from '../shared/exact-search';
import { hitDocument } from '../shared/hit-fields';
import { priceOrder, type StreamBatch } from '../shared/price-order';
import { PricingBudget } from '../shared/pricing-budget';
import type { ResultPrice } from '../shared/result-price';
import type { ResultDocument, SearchAggregations, SortValues } from '../shared/search-body';
import { withinLimits } from '../shared/search-params';
import { totalOf, type SearchResponse, type SearchTransport } from '../shared/search-transport';
import {
  bookableStartsOf,
  cellsOf,
  windowCellStreamBody,
  windowCountBody,
  windowFirstStartBody,
  windowNeedsStraddlers,
  windowPageBody,
  windowStraddlersBody,
  type WindowParams,
} from '../shared/window-clauses';
import type { SearchFound } from './search-homes';

type Hit = SearchResponse['hits']['hits'][number];

const STRADDLER_BATCH = 1_000;
const MAX_STREAM_BATCH = 2_000;

/** A hit, its card read once. */
interface WindowHit {
  hit: Hit;
  doc?: ResultDocument;
}
const docOf = (h: WindowHit): ResultDocument => (h.doc ??= hitDocument<ResultDocument>(h.hit));

/** The chosen stay of a home as a result shows it: its price, its link, and the `stay` field. */
export function windowResultPrice(chosen: ChosenStay): ResultPrice {
  const s = chosen.stay;
  return {
    price: chosen.price,
    link: s,
    stay:
      s.kind === 'fixed'
        ? { start_date: s.start_date, end_date: s.end_date, nights: daysBetween(s.start_date, s.end_date) }
        : { start_date: s.start_date, end_date: null, nights: s.committed_nights },
  };
}

/** Each home's chosen stay, priced once per search whichever step asks first; one budget unit per home. */
class ChosenBook {
  private readonly chosen = new Map<string, ChosenStay | null>();
  constructor(
    private readonly p: WindowParams,
    private readonly budget: PricingBudget,
    private readonly stats: SearchStats,
  ) {}

  of(home: Pick<ResultDocument, 'home_id' | 'pricing'>, starts: readonly IsoDate[]): ChosenStay | null {
    if (!this.chosen.has(home.home_id)) {
      this.budget.take();
      this.stats.priced += 1;
      this.stats.stays = (this.stats.stays ?? 0) + starts.length;
      this.chosen.set(
        home.home_id,
        bestStay(home.pricing, this.p.window.length, starts, (amount) => withinLimits(amount, this.p.price)),
      );
    }
    return this.chosen.get(home.home_id) ?? null;
  }
}

/** The window search's page `[offset, offset + size)`, its total, and `aggs` computed over every match. */
export async function searchWindow(
  t: SearchTransport,
  p: WindowParams,
  offset: number,
  size: number,
  today: IsoDate,
  aggs?: SearchAggregations,
): Promise<SearchFound> {
  const stats: SearchStats = { priced: 0, requests: 0, stays: 0 };
  const budget = p.budget ?? new PricingBudget(DEFAULT_SEARCH_MAX_PRICED);
  const book = new ChosenBook(p, budget, stats);
  const priceIfAffordable = () => null;
  const starts = windowStarts(p.window, today);
  if (starts.length === 0) return { homes: [], total: 0, stats, priceIfAffordable };
  const send = (body: Parameters<SearchTransport['search']>[0]) => {
    stats.requests += 1;
    return t.search(body);
  };
  const priced = (h: WindowHit) => book.of(docOf(h), bookableStartsOf(h.hit));

  // Fixed stays with price limits: homes only a straddling cell can admit are priced, and named when they pass.
  let passing: string[] | undefined;
  if (windowNeedsStraddlers(p)) {
    passing = [];
    let after: SortValues | undefined;
    for (;;) {
      const res = await send(windowStraddlersBody(p, starts, STRADDLER_BATCH, after));
      for (const hit of res.hits.hits) {
        const home = hitDocument<Pick<ResultDocument, 'home_id' | 'pricing'>>(hit);
        if (book.of(home, bookableStartsOf(hit)) !== null) passing.push(home.home_id);
      }
      if (res.hits.hits.length < STRADDLER_BATCH) break;
      after = res.hits.hits[res.hits.hits.length - 1].sort;
    }
  }

  // The page counts the matches itself where one request gives it (an order Elasticsearch applies): the filter is then evaluated once.
  const countsItself = !isStreamed(p) && size > 0;
  const counted = countsItself ? undefined : send(windowCountBody(p, starts, passing, aggs));
  const ordered = orderedHits(p, starts, offset, size, passing, send, priced, budget.limit, aggs);
  const [count, page] = await Promise.all([counted, ordered]);
  const counting = count ?? page.counted;
  const homes = page.hits.flatMap((h) => {
    const chosen = priced(h);
    return chosen ? [{ doc: docOf(h), priced: windowResultPrice(chosen) }] : [];
  });
  return {
    homes,
    total: counting ? totalOf(counting) : 0,
    stats,
    aggregations: counting?.aggregations as Record<string, unknown> | undefined,
    priceIfAffordable,
  };
}

/** Whether the order is one Elasticsearch cannot apply (the chosen stay's price or start): hits are then streamed and priced. */
function isStreamed(p: WindowParams): boolean {
  return p.sort === 'availability' || (p.window.length.kind === 'fixed' && (p.sort === 'price_asc' || p.sort === 'price_desc'));
}

type Send = (body: Parameters<SearchTransport['search']>[0]) => Promise<SearchResponse>;
type Priced = (h: WindowHit) => ChosenStay | null;

/** The hits `[offset, offset + size)` in the search's order. */
async function orderedHits(
  p: WindowParams,
  starts: readonly IsoDate[],
  offset: number,
  size: number,
  passing: string[] | undefined,
  send: Send,
  priced: Priced,
  budgetLimit: number,
  aggs?: SearchAggregations,
): Promise<{ hits: WindowHit[]; counted?: SearchResponse }> {
  if (size <= 0) return { hits: [] };
  if (p.sort === 'availability') return { hits: (await byChosenStart(p, starts, offset + size, passing, send, priced)).slice(offset) };
  if (isStreamed(p)) return { hits: await byChosenPrice(p, starts, offset, size, passing, send, priced, Math.min(MAX_STREAM_BATCH, budgetLimit)) };
  // newest, rating_desc, and a Flex tier's price (exact in the index, the same from every start): Elasticsearch's order, counted by the same request.
  const res = await send(windowPageBody(p, starts, offset, size, passing, aggs));
  return { hits: res.hits.hits.map((hit) => ({ hit })), counted: res };
}

/**
 * Fixed stays by the chosen price: the cells' streams merged by their bounds (a home's first
 * appearance has its least bound), through the threshold algorithm (../shared/price-order.ts).
 */
async function byChosenPrice(
  p: WindowParams,
  starts: readonly IsoDate[],
  offset: number,
  size: number,
  passing: string[] | undefined,
  send: Send,
  priced: Priced,
  maxBatch: number,
): Promise<WindowHit[]> {
  const order = p.sort === 'price_desc' ? 'desc' : 'asc';
  const streams = cellsOf(p.window, starts).map((c) => ({
    starts: c.starts,
    buffer: [] as Array<{ item: WindowHit; bound: number }>,
    after: undefined as SortValues | undefined,
    done: false,
  }));
  const seen = new Set<string>();
  const before = (a: number, b: number) => (order === 'asc' ? a < b : a > b);
  const next = async (batchSize: number): Promise<StreamBatch<WindowHit>> => {
    const items: Array<{ item: WindowHit; bound: number }> = [];
    for (;;) {
      const empty = streams.filter((s) => !s.done && s.buffer.length === 0);
      await Promise.all(
        empty.map(async (s) => {
          const res = await send(windowCellStreamBody(p, starts, s.starts, order, batchSize, passing, s.after));
          const hits = res.hits.hits;
          s.after = hits[hits.length - 1]?.sort;
          s.done = hits.length < batchSize;
          s.buffer.push(...hits.map((hit) => ({ item: { hit }, bound: Number(hit.sort?.[0]) })));
        }),
      );
      const live = streams.filter((s) => s.buffer.length > 0);
      if (live.length === 0) return { items, last: true };
      if (items.length >= batchSize) return { items, last: false };
      const head = live.reduce((a, b) => (before(b.buffer[0].bound, a.buffer[0].bound) ? b : a));
      const taken = head.buffer.shift()!;
      const id = docOf(taken.item).home_id;
      if (!seen.has(id)) {
        seen.add(id);
        items.push(taken);
      }
    }
  };
  const result = await priceOrder<WindowHit>(
    order,
    offset,
    size,
    next,
    (h) => ({ id: docOf(h).home_id, price: priced(h)?.price.display_price_with_discount ?? (order === 'asc' ? Number.MAX_SAFE_INTEGER : -1) }),
    { max: maxBatch },
  );
  return result.slice.map((s) => s.item);
}

/**
 * Sorted by availability, the chosen start first (then the home id): the homes are read by their first
 * bookable start, in order; a home whose chosen start is later waits for that start's turn.
 */
async function byChosenStart(
  p: WindowParams,
  starts: readonly IsoDate[],
  need: number,
  passing: string[] | undefined,
  send: Send,
  priced: Priced,
): Promise<WindowHit[]> {
  const out: WindowHit[] = [];
  const waiting = new Map<IsoDate, WindowHit[]>();
  const id = (h: WindowHit) => docOf(h).home_id;
  const batch = Math.min(Math.max(need * 2, 50), MAX_STREAM_BATCH);
  for (let i = 0; i < starts.length && out.length < need; i++) {
    const start = starts[i];
    const due = (waiting.get(start) ?? []).sort((a, b) => (id(a) < id(b) ? -1 : 1));
    let after: SortValues | undefined;
    for (;;) {
      const res = await send(windowFirstStartBody(p, starts, i, batch, passing, after));
      for (const hit of res.hits.hits) {
        const h: WindowHit = { hit };
        while (due.length > 0 && id(due[0]) < id(h) && out.length < need) out.push(due.shift()!);
        if (out.length >= need) return out;
        const chosen = priced(h)?.stay.start_date;
        if (chosen === start) out.push(h);
        else if (chosen !== undefined) waiting.set(chosen, [...(waiting.get(chosen) ?? []), h]);
        if (out.length >= need) return out;
      }
      if (out.length >= need || res.hits.hits.length < batch) break;
      after = res.hits.hits[res.hits.hits.length - 1].sort;
    }
    while (due.length > 0 && out.length < need) out.push(due.shift()!);
  }
  return out;
}
