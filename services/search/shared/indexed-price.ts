/**
 * Which indexed price a stay reads, decided here once for the stay clauses (price limits), the page
 * sort and the building search's price order (docs/contract.md, search_apartments_tool rule 2; docs/design.md, "Exact
 * prices in search without scripts"), over the fields toHomeDocument precomputes:
 *
 * - undated, or a move-in date alone: the engine's reference stay, exact in `reference_price`;
 * - Flex: the tier's price, exact in the nested `flex_stays` the stay can take (the tier asked for,
 *   or, without one, every tier held from the date: the price shown is the cheapest of them);
 * - fixed: no exact price in the index, only the bounds of the price cell of its move-in month
 *   and length (kernel/store/price-cells.ts); Node prices it exactly.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { StayDates } from '../../stays/stay-dates';
import { priceCellOf } from '../../kernel/store/price-cells';
import { toDayNumber } from '../../kernel/engine/dates';

type Query = estypes.QueryDslQueryContainer;
type FixedStay = Extract<StayDates, { kind: 'fixed' }>;
type FlexStay = Extract<StayDates, { kind: 'flex' }>;

/** The reference stay's price, after discounts (also the building order's "cheapest reference price"). */
export const REFERENCE_PRICE_FIELD = 'reference_price.with_discount';

/** An exact price held on the home itself. */
export interface ExactPrice {
  kind: 'exact';
  field: string;
}

/** An exact price held in nested documents: those `filter` keeps are the stay's; `cheapest`: several may be, and the least is shown. */
export interface NestedPrice {
  kind: 'nested';
  path: string;
  field: string;
  filter: Query[];
  cheapest: boolean;
}

/** Bounds of the price: the fields of a lower (`lo`) and an upper (`hi`) bound, absent where the home has none. */
export interface BandPrice {
  kind: 'band';
  lo: string;
  hi: string;
}

export type IndexedPrice = ExactPrice | NestedPrice | BandPrice;

export function indexedPriceOf(stay: StayDates): IndexedPrice {
  switch (stay.kind) {
    case 'undated':
    case 'start_only':
      return { kind: 'exact', field: REFERENCE_PRICE_FIELD };
    case 'flex':
      return flexPriceOf(stay);
    case 'fixed':
      return priceBandOf(stay);
  }
}

/** A Flex tier the home offers and can hold from the move-in date (the one asked for, or any). */
export function flexStayFilter(stay: FlexStay): Query[] {
  const filter: Query[] = [{ term: { 'flex_stays.move_in': toDayNumber(stay.start_date) } }];
  if (stay.committed_nights !== null) filter.push({ term: { 'flex_stays.committed_nights': stay.committed_nights } });
  return filter;
}

export function flexPriceOf(stay: FlexStay): NestedPrice {
  return { kind: 'nested', path: 'flex_stays', field: 'flex_stays.price', filter: flexStayFilter(stay), cheapest: stay.committed_nights === null };
}

/** The price cell of the stay's move-in month and length. */
export function priceBandOf(stay: FixedStay): BandPrice {
  return { kind: 'band', ...priceCellOf(stay.start_date, stay.nights) };
}
