/**
 * Runs one apartment search: the requests buildSearchBody makes, sent through the transport, and
 * the exact prices the engine gives (spec: "search_apartments_tool" rules 2 and 5; DESIGN: "Exact
 * prices in search without scripts"). Elasticsearch decides membership, counts and order wherever
 * the index holds what they depend on; Node prices the page, the homes whose price band straddles
 * a limit, and, for a fixed stay sorted by price, the stream up to the threshold.
 */
import type { IsoDate } from '../kernel/inventory/records';
import type { HomeDocument } from '../kernel/store/home-document';
import { priceOrder } from './price-order';
import { resultPrice, type ResultPrice } from './result-price';
import type { ResultDocument } from './result-shape';
import { buildSearchBody, needsPriceStream, type SearchPhase, type SortValues } from './search-body';
import { hasPriceLimits, withinLimits, type SearchParams } from './search-params';
import { totalOf, type SearchTransport } from './search-transport';

export interface FoundHome {
  doc: ResultDocument;
  priced: ResultPrice;
}

export interface SearchStats {
  /** Homes whose price the engine computed for this search. */
  priced: number;
  /** Elasticsearch requests sent. */
  requests: number;
}

export interface SearchFound {
  homes: FoundHome[];
  total: number;
  stats: SearchStats;
}

const STRADDLER_BATCH = 1_000;

/** Prices each home once per search, whichever step asks first (straddlers, stream, page). */
class PriceBook {
  private readonly prices = new Map<string, ResultPrice | null>();
  constructor(private readonly p: SearchParams, private readonly stats: SearchStats) {}

  of(doc: ResultDocument): ResultPrice | null {
    if (!this.prices.has(doc.home_id)) {
      this.stats.priced += 1;
      this.prices.set(doc.home_id, resultPrice(doc, this.p.stay));
    }
    return this.prices.get(doc.home_id) ?? null;
  }

  /** Every home ES returns can hold the stay, so it has a price; a missing one sorts last. */
  amount(doc: ResultDocument): number {
    return this.of(doc)?.price.display_price_with_discount ?? Number.MAX_SAFE_INTEGER;
  }
}

/** The matching homes `[offset, offset + size)` in the search's order, with the exact total. */
export async function searchHomes(t: SearchTransport, p: SearchParams, offset: number, size: number, today: IsoDate): Promise<SearchFound> {
  const stats: SearchStats = { priced: 0, requests: 0 };
  // No stay can start in the past (the quote says so); the spec only refuses dates over 7 days back.
  if (p.stay.kind !== 'undated' && p.stay.start_date < today) return { homes: [], total: 0, stats };
  const send = (phase: SearchPhase) => {
    stats.requests += 1;
    return t.search(buildSearchBody(p, phase));
  };
  const docOf = (hit: { _source?: HomeDocument }): HomeDocument => hit._source as HomeDocument;
  const book = new PriceBook(p, stats);

  let passing: string[] | undefined;
  if (p.stay.kind === 'fixed' && hasPriceLimits(p.price)) {
    passing = [];
    let after: SortValues | undefined;
    for (;;) {
      const res = await send({ kind: 'straddlers', size: STRADDLER_BATCH, after });
      for (const hit of res.hits.hits) {
        const doc = docOf(hit);
        if (withinLimits(book.amount(doc), p.price)) passing.push(doc.home_id);
      }
      if (res.hits.hits.length < STRADDLER_BATCH) break;
      after = res.hits.hits[res.hits.hits.length - 1].sort;
    }
  }

  const found = (docs: ResultDocument[]): FoundHome[] =>
    docs.flatMap((doc) => {
      const priced = book.of(doc);
      return priced ? [{ doc, priced }] : [];
    });

  if (needsPriceStream(p)) {
    let total = 0;
    let after: SortValues | undefined;
    const ordered = await priceOrder<HomeDocument>(
      p.sort === 'price_asc' ? 'asc' : 'desc',
      offset,
      size,
      async (batchSize) => {
        const res = await send({ kind: 'price_stream', size: batchSize, after, passing, withTotal: after === undefined });
        if (after === undefined) total = totalOf(res);
        const hits = res.hits.hits;
        after = hits[hits.length - 1]?.sort;
        return {
          items: hits.map((h) => ({ item: docOf(h), id: docOf(h).home_id, bound: Number(h.sort?.[0]) })),
          last: hits.length < batchSize,
          total,
        };
      },
      (doc) => book.amount(doc),
    );
    return { homes: found(ordered.slice.map((s) => s.item)), total, stats };
  }

  const res = await send({ kind: 'page', from: offset, size, passing });
  const homes = found(res.hits.hits.map(docOf));
  return { homes, total: totalOf(res), stats };
}
