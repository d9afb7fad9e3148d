/**
 * How many homes one request may price exactly in Node, across every search it sends (a thin building
 * search's relaxation steps included), and the request's signal: pricing stops as soon as the
 * request's deadline passes or its client goes away. Past the limit the search is refused as too broad
 * (config SEARCH_MAX_PRICED); the engine work per home is ~80 µs, so the limit bounds a request's CPU.
 */
import { badRequest, type ApiError } from '../../kernel/errors';

/** Homes priced between two looks at the signal (a look costs far less than one price). */
const SIGNAL_STRIDE = 32;

export class PricingBudget {
  private used = 0;

  constructor(
    readonly limit: number,
    /** Aborts when the request is over: its Elasticsearch calls carry it too. */
    readonly signal?: AbortSignal,
  ) {}

  /** Homes priced so far under this budget. */
  get priced(): number {
    return this.used;
  }

  get exhausted(): boolean {
    return this.used >= this.limit;
  }

  /** One more home to price: throws the refusal past the limit, or the signal's reason once the request is over. */
  take(): void {
    if (this.used >= this.limit) throw tooBroad(this.limit);
    if (this.used % SIGNAL_STRIDE === 0) this.signal?.throwIfAborted();
    this.used += 1;
  }
}

export function tooBroad(limit: number): ApiError {
  return badRequest(
    'search_too_broad',
    `This price-sorted dated search would have to price more than ${limit.toLocaleString('en-US')} apartments exactly. ` +
      'Narrow it: a display city instead of a market, filters, or min_price/max_price (to page further by price, pass min_price ' +
      'at the last price shown, or max_price under price_desc).',
  );
}
