/**
 * The exact search over apartments that the apartment search (../apartments/search-homes.ts) and the
 * building search (../buildings/) both stand on: the requests buildSearchBody makes, sent through
 * the transport, and the exact prices the engine gives (docs/contract.md, search_apartments_tool rules 2 and 5; docs/design.md, "Exact
 * prices in search without scripts"). Elasticsearch decides membership, counts and order wherever
 * the index holds what they depend on; Node prices the page, the homes whose price band straddles
 * a limit, and, for a fixed stay sorted by price, the stream up to the threshold.
 */
import { DEFAULT_SEARCH_MAX_PRICED } from '../../kernel/config';
import type { IsoDate } from '../../kernel/inventory/records';
import type { HomeDocument } from '../../kernel/store/home-document';
import { priceOrder } from './price-order';
import { PricingBudget } from './pricing-budget';
import { hitDocument } from './hit-fields';
import { resultPrice, type PricedDocument, type ResultPrice } from './result-price';
import type { estypes } from '@elastic/elasticsearch';
import {
  aggregationsApart,
  buildSearchBody,
  fixedPriceClauses,
  matchClauses,
  needsPriceStream,
  type ResultDocument,
  type SearchAggregations,
  type SortValues,
} from './search-body';
import { hasPriceLimits, withinLimits, type SearchParams } from './search-params';
import { totalOf, type SearchResponse, type SearchTransport } from './search-transport';
import { pricingSpan, requestTrace } from '../../kernel/tracing';

/** What pricing a home reads: its id (each is priced once) and its pricing inputs. */
export type PricedHome = PricedDocument & Pick<HomeDocument, 'home_id'>;

export interface SearchStats {
  /** Homes whose price the engine computed for this search. */
  priced: number;
  /** Elasticsearch requests sent. */
  requests: number;
  /** A window of move-in dates: the stays the engine priced (each priced home's bookable starts). */
  stays?: number;
}

const STRADDLER_BATCH = 1_000;
/** Largest batch of the price stream (price-order.ts doubles its batches up to it). */
const MAX_STREAM_BATCH = 2_000;

/** Prices each home once per search, whichever step asks first (straddlers, stream, page). */
export class PriceBook {
  private readonly prices = new Map<string, ResultPrice | null>();
  private readonly budget: PricingBudget;
  /** The traced request this search serves, if any: told each home priced. */
  private readonly trace = requestTrace();
  constructor(
    private readonly p: SearchParams,
    private readonly stats: SearchStats,
  ) {
    this.budget = p.budget ?? new PricingBudget(DEFAULT_SEARCH_MAX_PRICED);
  }

  of(doc: PricedHome): ResultPrice | null {
    if (!this.prices.has(doc.home_id)) {
      this.budget.take();
      this.stats.priced += 1;
      if (this.trace) this.trace.homesPriced += 1;
      this.prices.set(doc.home_id, resultPrice(doc, this.p.stay));
    }
    return this.prices.get(doc.home_id) ?? null;
  }

  /** The exact price, or null when it is not priced yet and the search may price no more homes (a figure that can go without). */
  amountIfAffordable(doc: PricedHome): number | null {
    if (!this.prices.has(doc.home_id) && this.budget.exhausted) return null;
    return this.of(doc)?.price.display_price_with_discount ?? null;
  }

  /** Every home ES returns can hold the stay, so it has a price; a missing one sorts last. */
  amount(doc: PricedHome): number {
    return this.of(doc)?.price.display_price_with_discount ?? Number.MAX_SAFE_INTEGER;
  }
}

type Hit = { _source?: unknown; fields?: Record<string, unknown> };
const docOf = (hit: Hit): HomeDocument => hitDocument<HomeDocument>(hit);

/** A hit of the price stream, read once, when it is first priced. */
interface StreamHit<D> {
  hit: Hit;
  doc?: D;
}
const streamDoc = <D>(s: StreamHit<D>): D => (s.doc ??= docOf(s.hit) as unknown as D);

/**
 * One search over the apartments that match `p` exactly. The straddler pass (fixed stays with
 * price limits) runs once, and every home is priced once, however many requests the caller sends:
 * the apartment search asks for one slice, the building search for several views of the same set.
 */
export class ExactSearch {
  readonly stats: SearchStats = { priced: 0, requests: 0 };
  readonly book: PriceBook;
  private passing: Promise<string[] | undefined> | undefined;

  constructor(
    private readonly t: SearchTransport,
    readonly p: SearchParams,
  ) {
    this.book = new PriceBook(p, this.stats);
  }

  send(body: estypes.SearchRequest): Promise<SearchResponse> {
    this.stats.requests += 1;
    return this.t.search(body);
  }

  /** Several requests in one round trip (one `_msearch`), answered in order. */
  sendAll(bodies: readonly estypes.SearchRequest[]): Promise<SearchResponse[]> {
    this.stats.requests += 1;
    return this.t.searchAll(bodies);
  }

  /**
   * A request that may carry aggregations: those are counted in a search of their own in the same
   * round trip (search-body.ts, aggregationsApart), answered as the one request would be.
   */
  async sendCounted(body: estypes.SearchRequest): Promise<SearchResponse> {
    if (body.aggs === undefined) return this.send(body);
    const [hits, counted] = await this.sendAll(aggregationsApart(body));
    return { ...hits, hits: { ...hits.hits, ...(counted.hits.total === undefined ? {} : { total: counted.hits.total }) }, aggregations: counted.aggregations };
  }

  /** The homes whose band straddles a price limit and whose exact price passes it (fixed stays with limits). */
  passingStraddlers(): Promise<string[] | undefined> {
    this.passing ??= this.findStraddlers();
    return this.passing;
  }

  private async findStraddlers(): Promise<string[] | undefined> {
    const p = this.p;
    if (p.stay.kind !== 'fixed' || !hasPriceLimits(p.price)) return undefined;
    const passing: string[] = [];
    let after: SortValues | undefined;
    for (;;) {
      const res = await this.send(buildSearchBody(p, { kind: 'straddlers', size: STRADDLER_BATCH, after }));
      pricingSpan(
        res.hits.hits.length,
        () => {
          for (const hit of res.hits.hits) {
            const doc = docOf(hit);
            if (withinLimits(this.book.amount(doc), p.price)) passing.push(doc.home_id);
          }
        },
        { counted: false },
      );
      if (res.hits.hits.length < STRADDLER_BATCH) return passing;
      after = res.hits.hits[res.hits.hits.length - 1].sort;
    }
  }

  /** Filter clauses that match exactly the apartments of the search, price limits included. */
  async filter(): Promise<estypes.QueryDslQueryContainer[]> {
    return [...matchClauses(this.p), ...fixedPriceClauses(this.p, await this.passingStraddlers())];
  }

  priced<D extends PricedHome>(docs: D[]): Array<{ doc: D; priced: ResultPrice }> {
    return pricingSpan(
      docs.length,
      () =>
        docs.flatMap((doc) => {
          const priced = this.book.of(doc);
          return priced ? [{ doc, priced }] : [];
        }),
      { counted: false },
    );
  }

  /**
   * The matching homes `[offset, offset + size)` in the search's order, with the exact total. A fixed
   * stay by price may read fewer fields per home (`streamSource`, for a caller that needs less than a
   * result card; D names what those fields hold).
   */
  async homes<D extends PricedHome = ResultDocument>(
    offset: number,
    size: number,
    streamSource?: readonly string[],
    aggs?: SearchAggregations,
  ): Promise<{ homes: Array<{ doc: D; priced: ResultPrice }>; total: number; aggregations?: Record<string, unknown> }> {
    const p = this.p;
    const passing = await this.passingStraddlers();
    if (needsPriceStream(p)) {
      let total = 0;
      let aggregations: Record<string, unknown> | undefined;
      let after: SortValues | undefined;
      const ordered = await priceOrder<StreamHit<D>>(
        p.sort === 'price_asc' ? 'asc' : 'desc',
        offset,
        size,
        async (batchSize) => {
          const res = await this.sendCounted(
            buildSearchBody(p, {
              kind: 'price_stream',
              size: batchSize,
              after,
              passing,
              withTotal: after === undefined,
              source: streamSource,
              // The aggregations go with the first batch, the one that counts the matching homes (counted beside it: sendCounted).
              ...(after === undefined && aggs ? { aggs } : {}),
            }),
          );
          if (after === undefined) {
            total = totalOf(res);
            aggregations = res.aggregations as Record<string, unknown> | undefined;
          }
          const hits = res.hits.hits;
          after = hits[hits.length - 1]?.sort;
          return {
            // A hit's card is decoded when it is priced: the tail of a batch past the threshold never is.
            items: hits.map((h) => ({ item: { hit: h }, bound: Number(h.sort?.[0]) })),
            last: hits.length < batchSize,
            total,
          };
        },
        (s) => {
          const doc = streamDoc(s);
          return { id: doc.home_id, price: this.book.amount(doc) };
        },
        // No batch larger than the homes a search may price: a page the old first batch answered is not refused for a bigger one.
        { max: Math.min(MAX_STREAM_BATCH, p.budget?.limit ?? DEFAULT_SEARCH_MAX_PRICED) },
      );
      return { homes: this.priced(ordered.slice.map((s) => streamDoc(s.item))), total, aggregations };
    }
    const res = await this.sendCounted(buildSearchBody(p, { kind: 'page', from: offset, size, passing, aggs }));
    return {
      homes: this.priced(res.hits.hits.map((h) => docOf(h) as unknown as D)),
      total: totalOf(res),
      aggregations: res.aggregations as Record<string, unknown> | undefined,
    };
  }
}

/** No stay can start in the past (get_quote_tool rule 3); docs/contract.md only refuses dates over 7 days back ("Dates" rule 2). */
export function startsInPast(p: SearchParams, today: IsoDate): boolean {
  return p.stay.kind !== 'undated' && p.stay.start_date < today;
}
