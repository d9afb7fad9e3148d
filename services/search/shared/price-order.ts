/**
 * The threshold algorithm (docs/design.md, "Exact prices in search"): a fixed stay's
 * exact price is not in the index, but a bound of it is. Elasticsearch streams the matching homes
 * by their band's lower bound (price_asc) or upper bound (price_desc); each is priced exactly,
 * and the stream stops once no home still to come can enter the requested slice: every later
 * lower bound is above the price at the slice's end (or every later upper bound below it).
 */

export interface StreamItem<T> {
  item: T;
  /** The band bound the stream is sorted by; later items have bounds at or past it. */
  bound: number;
}

export interface Priced<T> {
  item: T;
  id: string;
  price: number;
}

export interface StreamBatch<T> {
  items: StreamItem<T>[];
  /** True when the stream has nothing after these items. */
  last: boolean;
  /** How many items the whole stream holds, when known (a slice past it is empty at once). */
  total?: number;
}

/** Order of the exact prices; equal prices by home id, as ES breaks ties. */
export function comparePriced(order: 'asc' | 'desc') {
  return (a: { price: number; id: string }, b: { price: number; id: string }): number =>
    (order === 'asc' ? a.price - b.price : b.price - a.price) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export interface PriceOrderResult<T> {
  /** Items `[offset, offset + size)` of the exact order. */
  slice: Priced<T>[];
  /** Homes priced to find it. */
  priced: number;
}

/**
 * Items `[offset, offset + size)` in exact price order. `next(batchSize)` returns the next batch of
 * the stream; `price(item)` is the exact price and the id that breaks its ties. Items are priced in
 * stream order and only while one could still enter the slice, so a batch's tail past the threshold
 * is never priced (nor read: the item may decode itself when priced).
 */
export async function priceOrder<T>(
  order: 'asc' | 'desc',
  offset: number,
  size: number,
  next: (batchSize: number) => Promise<StreamBatch<T>>,
  price: (item: T) => { id: string; price: number },
  batches: { first?: number; max?: number } = {},
): Promise<PriceOrderResult<T>> {
  const need = offset + size;
  if (size <= 0) return { slice: [], priced: 0 };
  const compare = comparePriced(order);
  const priced: Priced<T>[] = [];
  // The `need` best prices so far, in order: the last is the slice's edge once there are `need`.
  const best: Priced<T>[] = [];
  // Strictly past: an unseen home at exactly the edge price could still win the tie on its id.
  const pastEdge = (bound: number): boolean => {
    const edge = best.length === need ? best[need - 1] : undefined;
    return edge !== undefined && (order === 'asc' ? edge.price < bound : edge.price > bound);
  };
  const max = batches.max ?? 2_000;
  // The first batch covers the slice three times over: the bounds are per move-in month, so the slice's
  // edge price often lies past the 50th bound, and a second round trip costs more than 50 more hits
  // (measured: docs/search-index.md, "A flat index"). Each later batch doubles.
  let batchSize = batches.first ?? Math.min(Math.max(need * 3, 50), max);
  for (;;) {
    const batch = await next(batchSize);
    if (batch.total !== undefined && offset >= batch.total) return { slice: [], priced: 0 };
    for (const s of batch.items) {
      // Every later item's bound is at or past this one's, so none of them can enter either.
      if (pastEdge(s.bound)) return { slice: [...priced].sort(compare).slice(offset, need), priced: priced.length };
      const { id, price: amount } = price(s.item);
      const p: Priced<T> = { item: s.item, id, price: amount };
      priced.push(p);
      keepBest(best, p, need, compare);
    }
    const tail = batch.items[batch.items.length - 1];
    if (batch.last || tail === undefined || pastEdge(tail.bound)) break;
    batchSize = Math.min(batchSize * 2, max);
  }
  return { slice: priced.sort(compare).slice(offset, need), priced: priced.length };
}

/** Inserts `p` into `best` (sorted, at most `need` long) when it is among the `need` best. */
function keepBest<T>(best: Priced<T>[], p: Priced<T>, need: number, compare: (a: Priced<T>, b: Priced<T>) => number): void {
  if (best.length === need && compare(p, best[need - 1]) >= 0) return;
  let lo = 0;
  let hi = best.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(best[mid], p) <= 0) lo = mid + 1;
    else hi = mid;
  }
  best.splice(lo, 0, p);
  if (best.length > need) best.pop();
}
