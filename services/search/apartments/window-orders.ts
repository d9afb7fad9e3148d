/**
 * The orders of a window search Elasticsearch cannot apply, the chosen stay's price or start
 * (docs/decisions.md, "A window of move-in dates"): the hits a page needs, read and priced in an
 * order no later home can break (./window-search.ts sends the requests' count beside them).
 */
import type { ChosenStay } from '../../kernel/engine/best-start';
import type { IsoDate } from '../../kernel/inventory/records';
import { hitDocument } from '../shared/hit-fields';
import { priceOrder, type StreamBatch } from '../shared/price-order';
import type { ResultDocument, SearchAggregations, SortValues } from '../shared/search-body';
import { totalOf, type SearchResponse, type SearchTransport } from '../shared/search-transport';
import { cellsOf, windowCellStreamBody, windowFirstStartBody, windowPageBody, type WindowParams } from '../shared/window-clauses';

type Hit = SearchResponse['hits']['hits'][number];

/** Largest batch of a stream (price-order.ts doubles its batches up to it). */
export const MAX_STREAM_BATCH = 2_000;

/** A hit, its card read once. */
export interface WindowHit {
  hit: Hit;
  doc?: ResultDocument;
}
export const docOf = (h: WindowHit): ResultDocument => (h.doc ??= hitDocument<ResultDocument>(h.hit));

export type Send = (body: Parameters<SearchTransport['search']>[0]) => Promise<SearchResponse>;
/** A hit's chosen stay (priced once per search). */
export type Priced = (h: WindowHit) => ChosenStay | null;

/** What every order of a window search reads by: the search, its starts, the straddlers that pass, how to send and to price. */
export interface WindowReads {
  p: WindowParams;
  starts: readonly IsoDate[];
  passing: string[] | undefined;
  send: Send;
  priced: Priced;
}

/**
 * Fixed stays by the chosen price: the cells' streams merged by their bounds (a home's first
 * appearance has its least bound), through the threshold algorithm (../shared/price-order.ts).
 */
export async function byChosenPrice(
  reads: WindowReads,
  offset: number,
  size: number,
  maxBatch: number,
  aggs?: SearchAggregations,
): Promise<{ hits: WindowHit[]; counted?: SearchResponse }> {
  const { p, starts, passing, send, priced } = reads;
  const order = p.sort === 'price_desc' ? 'desc' : 'asc';
  let counted: SearchResponse | undefined;
  const streams = cellsOf(p.window, starts).map((c) => ({
    starts: c.starts,
    buffer: [] as Array<{ item: WindowHit; bound: number }>,
    after: undefined as SortValues | undefined,
    done: false,
  }));
  // Each stream reads its share of a batch: the whole of it for one cell, two thirds for two (the cells'
  // bounds interleave, so a page draws on each; measured in docs/performance.md, "A window of move-in dates").
  const perStream = (batchSize: number) => Math.ceil((2 * batchSize) / (streams.length + 1));
  const seen = new Set<string>();
  const before = (a: number, b: number) => (order === 'asc' ? a < b : a > b);
  const next = async (batchSize: number): Promise<StreamBatch<WindowHit>> => {
    const items: Array<{ item: WindowHit; bound: number }> = [];
    for (;;) {
      const empty = streams.filter((s) => !s.done && s.buffer.length === 0);
      // A stream ran dry: the batch ends here. The caller prices what it has and often stops, so the
      // stream is read on only when a later batch needs it.
      if (empty.length > 0 && items.length > 0) return { items, last: false, ...(counted ? { total: totalOf(counted) } : {}) };
      await Promise.all(
        empty.map(async (s) => {
          // One cell: its first batch counts the matches (searchWindow sends no count then).
          const counts = streams.length === 1 && s.after === undefined && counted === undefined;
          const res = await send(windowCellStreamBody(p, starts, s.starts, order, perStream(batchSize), passing, s.after, counts ? { aggs } : undefined));
          if (counts) counted = res;
          const hits = res.hits.hits;
          s.after = hits[hits.length - 1]?.sort;
          s.done = hits.length < perStream(batchSize);
          s.buffer.push(...hits.map((hit) => ({ item: { hit }, bound: Number(hit.sort?.[0]) })));
        }),
      );
      const live = streams.filter((s) => s.buffer.length > 0);
      if (live.length === 0) return { items, last: true, ...(counted ? { total: totalOf(counted) } : {}) };
      if (items.length >= batchSize) return { items, last: false, ...(counted ? { total: totalOf(counted) } : {}) };
      const head = live.reduce((a, b) => (before(b.buffer[0].bound, a.buffer[0].bound) ? b : a));
      const taken = head.buffer.shift()!;
      // A stream's tie-breaker is the home id (windowCellStreamBody's sort): no card is read for a home never priced.
      const id = String(taken.item.hit.sort?.[1] ?? docOf(taken.item).home_id);
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
  return { hits: result.slice.map((s) => s.item), counted };
}

/** Sorted by availability, a search of few homes (`total`): all of them in one request, priced, in order of their chosen start. */
export async function everyHomeByChosenStart(
  reads: WindowReads,
  offset: number,
  size: number,
  total: number,
): Promise<{ hits: WindowHit[]; counted?: SearchResponse }> {
  const { p, starts, passing, send, priced } = reads;
  const res = await send(windowPageBody(p, starts, 0, total, passing));
  const keyed = res.hits.hits.flatMap((hit) => {
    const h: WindowHit = { hit };
    const start = priced(h)?.stay.start_date;
    return start === undefined ? [] : [{ h, start, id: docOf(h).home_id }];
  });
  keyed.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { hits: keyed.slice(offset, offset + size).map((k) => k.h) };
}

/**
 * Sorted by availability, the chosen start first (then the home id): the homes are read by their first
 * bookable start, in order; a home whose chosen start is later waits for that start's turn.
 */
export async function byChosenStart(reads: WindowReads, need: number): Promise<WindowHit[]> {
  const { p, starts, passing, send, priced } = reads;
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
