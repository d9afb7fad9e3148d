/**
 * A flexible move-in (docs/contract.md, "A window of move-in dates"): of the start dates a home can
 * host a stay of one length from, the one whose stay is cheapest, ties to the earliest. Pure: which
 * starts are bookable is the caller's question (checkStay, or the index's per-start clauses, which
 * answer it the same way); the price is the one every tool shows (displayPrice).
 */
import type { IsoDate } from '../inventory/records';
import { addDays } from './dates';
import { displayAmountOf, displayPrice } from './pricing';
import type { DisplayPrice, PricingInputs, StayRequest } from './types';

/** The length of every stay of a window: nights of a fixed stay, or a Flex tier. */
export type StayLength = { kind: 'fixed'; nights: number } | { kind: 'flex'; committed_nights: number };

/** The stay of `length` moving in on `start`. */
export function stayOfLength(start: IsoDate, length: StayLength): StayRequest {
  return length.kind === 'fixed'
    ? { kind: 'fixed', start_date: start, end_date: addDays(start, length.nights) }
    : { kind: 'flex', start_date: start, committed_nights: length.committed_nights };
}

export interface ChosenStay {
  stay: StayRequest;
  price: DisplayPrice;
}

/**
 * Of the candidates (start dates, each with its price or null when its stay cannot be had), the one
 * with the lowest price that `fits` (the search's min_price/max_price), ties to the earliest start.
 */
export function pickStart<P>(
  candidates: Iterable<{ start: IsoDate; price: P | null }>,
  amount: (p: P) => number,
  fits: (amount: number) => boolean,
): {
  start: IsoDate;
  price: P;
} | null {
  let best: { start: IsoDate; price: P; amount: number } | null = null;
  for (const c of candidates) {
    if (c.price === null) continue;
    const a = amount(c.price);
    if (!fits(a)) continue;
    if (best === null || a < best.amount || (a === best.amount && c.start < best.start)) best = { start: c.start, price: c.price, amount: a };
  }
  return best && { start: best.start, price: best.price };
}

/**
 * The chosen stay of a home among its bookable starts (in any order): priced by displayPrice, the
 * cheapest whose price fits, ties to the earliest; null when none fits. Each start's amount is
 * compared alone; the chosen one's display price is then computed whole (the same figure).
 */
export function bestStay(pricing: PricingInputs, length: StayLength, bookableStarts: readonly IsoDate[], fits: (amount: number) => boolean): ChosenStay | null {
  const candidates = bookableStarts.map((start) => {
    const stay = stayOfLength(start, length);
    return { start, price: { stay, amount: displayAmountOf(pricing, stay) } };
  });
  const chosen = pickStart(candidates, (c) => c.amount, fits)?.price;
  return chosen ? { stay: chosen.stay, price: displayPrice(pricing, chosen.stay) } : null;
}
