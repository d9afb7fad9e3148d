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
import { PricingBudget } from '../shared/pricing-budget';
import type { ResultPrice } from '../shared/result-price';
import type { ResultDocument, SearchAggregations, SortValues } from '../shared/search-body';
import { withinLimits } from '../shared/search-params';
import { totalOf, type SearchResponse, type SearchTransport } from '../shared/search-transport';
import {
  bookableStartsOf,
  cellsOf,
  windowCountBody,
  windowNeedsStraddlers,
  windowPageBody,
  windowStraddlersBody,
  type WindowParams,
} from '../shared/window-clauses';
import type { SearchFound } from './search-homes';
import { byChosenPrice, byChosenStart, docOf, everyHomeByChosenStart, MAX_STREAM_BATCH, type WindowHit, type WindowReads } from './window-orders';
import { pricingSpan, requestTrace } from '../../kernel/tracing';

const STRADDLER_BATCH = 1_000;
/** Sorted by availability, a search of at most this many homes (or twice the page's end, up to a stream's batch) reads and prices them all at once. */
const FEW_HOMES = 50;

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

/**
 * Stays one budget unit stands for: the budget bounds a request's engine work at ~80 µs a unit
 * (search/shared/pricing-budget.ts), and a stay of a window costs ~4 µs (90 nights).
 */
const STAYS_PER_UNIT = 20;

/** Each home's chosen stay, priced once per search whichever step asks first; a unit of the budget per home and per 20 stays past the first 20. */
class ChosenBook {
  private readonly chosen = new Map<string, ChosenStay | null>();
  /** The traced request this search serves, if any: told each home priced. */
  private readonly trace = requestTrace();
  constructor(
    private readonly p: WindowParams,
    private readonly budget: PricingBudget,
    private readonly stats: SearchStats,
  ) {}

  of(home: Pick<ResultDocument, 'home_id' | 'pricing'>, starts: readonly IsoDate[]): ChosenStay | null {
    if (!this.chosen.has(home.home_id)) {
      for (let unit = 0; unit < Math.max(1, Math.ceil(starts.length / STAYS_PER_UNIT)); unit++) this.budget.take();
      this.stats.priced += 1;
      if (this.trace) this.trace.homesPriced += 1;
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
  const priced = (h: WindowHit) => book.of(docOf(h), bookableStartsOf(h.hit, p.window, starts));

  // Fixed stays with price limits: homes only a straddling cell can admit are priced, and named when they pass.
  let passing: string[] | undefined;
  if (windowNeedsStraddlers(p)) {
    const named: string[] = (passing = []);
    let after: SortValues | undefined;
    for (;;) {
      const res = await send(windowStraddlersBody(p, starts, STRADDLER_BATCH, after));
      pricingSpan(
        res.hits.hits.length,
        () => {
          for (const hit of res.hits.hits) {
            const home = hitDocument<Pick<ResultDocument, 'home_id' | 'pricing'>>(hit);
            if (book.of(home, bookableStartsOf(hit, p.window, starts)) !== null) named.push(home.home_id);
          }
        },
        { counted: false },
      );
      if (res.hits.hits.length < STRADDLER_BATCH) break;
      after = res.hits.hits[res.hits.hits.length - 1].sort;
    }
  }

  // The page counts the matches itself where one request gives it (an order Elasticsearch applies): the filter is then evaluated once.
  const countsItself = size > 0 && (!isStreamed(p) || (p.sort !== 'availability' && cellsOf(p.window, starts).length === 1));
  const counted = countsItself ? undefined : send(windowCountBody(p, starts, passing, aggs));
  const reads: WindowReads = { p, starts, passing, send, priced };
  // A page past the last is empty: nothing is streamed or priced for it. By availability the count comes first:
  // a search of few homes reads them all at once instead of walking the window's starts.
  const total = offset > 0 || p.sort === 'availability' ? await counted : undefined;
  const beyond = total !== undefined && offset >= totalOf(total);
  const few = total !== undefined && p.sort === 'availability' && totalOf(total) <= Math.min(Math.max(2 * (offset + size), FEW_HOMES), MAX_STREAM_BATCH);
  const ordered = beyond
    ? Promise.resolve({ hits: [] as WindowHit[], counted: undefined })
    : few
      ? everyHomeByChosenStart(reads, offset, size, totalOf(total))
      : orderedHits(reads, offset, size, budget.limit, aggs);
  const [count, page] = await Promise.all([counted, ordered]);
  const counting = count ?? page.counted;
  const homes = pricingSpan(
    page.hits.length,
    () =>
      page.hits.flatMap((h) => {
        const chosen = priced(h);
        return chosen ? [{ doc: docOf(h), priced: windowResultPrice(chosen) }] : [];
      }),
    { counted: false },
  );
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

/** The hits `[offset, offset + size)` in the search's order. */
async function orderedHits(
  reads: WindowReads,
  offset: number,
  size: number,
  budgetLimit: number,
  aggs?: SearchAggregations,
): Promise<{ hits: WindowHit[]; counted?: SearchResponse }> {
  const { p, starts, passing, send } = reads;
  if (size <= 0) return { hits: [] };
  if (p.sort === 'availability') return { hits: (await byChosenStart(reads, offset + size)).slice(offset) };
  if (isStreamed(p)) return byChosenPrice(reads, offset, size, Math.min(MAX_STREAM_BATCH, budgetLimit), aggs);
  // newest, rating_desc, and a Flex tier's price (exact in the index, the same from every start): Elasticsearch's order, counted by the same request.
  const res = await send(windowPageBody(p, starts, offset, size, passing, aggs));
  return { hits: res.hits.hits.map((hit) => ({ hit })), counted: res };
}
