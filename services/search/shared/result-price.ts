/**
 * The price a search result shows, from the pricing inputs its index document carries, by the
 * same engine functions the quote calls (docs/contract.md, search_apartments_tool rule 2; docs/design.md, "The stay
 * engine is pure"). So a dated result's display price is its quote's.
 */
import { displayPrice } from '../../kernel/engine/pricing';
import type { DisplayPrice, StayRequest } from '../../kernel/engine/types';
import { toDayNumber } from '../../kernel/engine/dates';
import type { DayRangeValue, FlexStayDocument, HomeDocument } from '../../kernel/store/home-document';
import type { LinkDates } from '../../homes/links';
import type { StayDates } from '../../stays/stay-dates';
import type { IsoDate } from '../../kernel/inventory/records';

export interface ResultPrice {
  price: DisplayPrice;
  /** The stay the links pre-fill: the requested one, with the tier shown for a Flex search. */
  link: LinkDates | null;
  /** A search over a window of move-in dates: the home's chosen stay (Flex: no end, its committed nights). */
  stay?: { start_date: IsoDate; end_date: IsoDate | null; nights: number };
}

/** `flex_stays` is fetched only for a Flex search without a tier, the one price that needs it. */
export type PricedDocument = Pick<HomeDocument, 'pricing' | 'reference_price'> & Partial<Pick<HomeDocument, 'flex_stays'>>;

function covers(ranges: readonly DayRangeValue[], day: number): boolean {
  return ranges.some((r) => r.gte <= day && (r.lt === undefined || day < r.lt));
}

/** Without a tier, the tier shown is the cheapest the home can hold from the date (shorter on a tie). */
export function cheapestFlexStay(doc: PricedDocument, start: string): FlexStayDocument | null {
  let best: FlexStayDocument | null = null;
  const day = toDayNumber(start);
  for (const f of doc.flex_stays ?? []) {
    if (!covers(f.move_in, day)) continue;
    if (best === null || f.price < best.price || (f.price === best.price && f.committed_nights < best.committed_nights)) best = f;
  }
  return best;
}

/** The priced stay of a result: null only for a Flex search the home cannot hold (never a result). */
export function resultStay(doc: PricedDocument, stay: StayDates): StayRequest | null {
  switch (stay.kind) {
    case 'undated':
    case 'start_only':
      // The engine's reference stay, priced in the index as reference_price.
      return { kind: 'fixed', start_date: doc.reference_price.start_date, end_date: doc.reference_price.end_date };
    case 'fixed':
      return { kind: 'fixed', start_date: stay.start_date, end_date: stay.end_date };
    case 'flex': {
      const cn = stay.committed_nights ?? cheapestFlexStay(doc, stay.start_date)?.committed_nights;
      return cn === undefined ? null : { kind: 'flex', start_date: stay.start_date, committed_nights: cn };
    }
  }
}

export function resultPrice(doc: PricedDocument, stay: StayDates): ResultPrice | null {
  const priced = resultStay(doc, stay);
  if (priced === null) return null;
  const link: LinkDates | null = stay.kind === 'undated' ? null : stay.kind === 'start_only' ? { kind: 'start_only', start_date: stay.start_date } : priced;
  return { price: displayPrice(doc.pricing, priced), link };
}
