/**
 * What one apartment search asks, once the arguments are read (docs/contract.md, "search_apartments_tool"):
 * the place, the shared filters, the stay, the price limits in the unit the price is shown in,
 * the rating threshold and the order. buildSearchBody turns it into Elasticsearch requests.
 */
import type { estypes } from '@elastic/elasticsearch';
import { NIGHTS_PER_MONTH } from '../../kernel/engine/labels';
import type { SharedFilters } from './filters';
import type { PricingBudget } from './pricing-budget';
import type { ResolvedLocation } from './location';
import type { SearchSort } from './sorts';
import type { QueryPart } from '../../kernel/text/query-plan';
import type { Viewport } from './viewport';
import type { Polygon } from './polygon';
import type { StayDates } from '../../stays/stay-dates';
import type { StayWindow } from '../../stays/stay-window';

/** Inclusive whole-dollar limits in the display unit of the stay's price; null = no limit. */
export interface PriceLimits {
  min: number | null;
  max: number | null;
}

export interface SearchParams {
  /** The place searched; null when a map's viewport or a polygon stands in for it (the search may then cross markets). */
  location: ResolvedLocation | null;
  /** The map's rectangle, when one is given: only homes inside it match. */
  viewport?: Viewport | null;
  /** The drawn shape, when one is given: only homes inside it match (with or without a place). */
  polygon?: Polygon | null;
  filters: SharedFilters;
  stay: StayDates;
  /**
   * A window of move-in dates, when the search names one: each home's stay is then its best start in
   * the window (../apartments/window-search.ts), and `stay` is the window's first stay (its price unit, the site's links).
   */
  window?: StayWindow | null;
  price: PriceLimits;
  /** Lowest building rating (1..5) accepted; unrated buildings are excluded when set. */
  minRating: number | null;
  sort: SearchSort;
  /** A word search's q, analysed (../text/query-plan.ts): every part must match; null or absent without q. */
  text?: readonly QueryPart[] | null;
  /** When `text` was expanded in a vocabulary not yet confirmed for this request (./read-q.ts, speculativePlan): what settles it. */
  textSettled?: Promise<QueryPart[] | null>;
  /** Further filter clauses of a caller that narrows the apartments (the building search: square footage, exclusions). */
  extra?: readonly estypes.QueryDslQueryContainer[];
  /** The request's pricing budget (config SEARCH_MAX_PRICED), shared by every search of the request; past it the search is refused as too broad. */
  budget?: PricingBudget;
}

export type PriceUnit = 'per_night' | 'per_month';

/** The unit the stay's price is shown in: per night under 30 nights, per month otherwise. */
export function displayUnit(stay: StayDates): PriceUnit {
  return stay.kind === 'fixed' && stay.nights < NIGHTS_PER_MONTH ? 'per_night' : 'per_month';
}

export function hasPriceLimits(p: PriceLimits): boolean {
  return p.min !== null || p.max !== null;
}

/**
 * min_price/max_price given in `unit`, as whole-dollar limits on the displayed figure: a monthly
 * limit against a nightly price is divided by 30; against a monthly price, a nightly limit is on its
 * thirtieth in whole dollars, cents dropped (a max of $100 a night admits up to $3,029 a month), so
 * whole-dollar nightly ranges that meet leave no monthly price between them (docs/decisions.md, "Facet counts").
 */
export function displayLimits(min: number | undefined, max: number | undefined, unit: PriceUnit, shown: PriceUnit): PriceLimits {
  const convert = (value: number | undefined, round: (x: number) => number, bound: 'min' | 'max'): number | null => {
    if (value === undefined) return null;
    if (unit === shown) return value;
    if (unit === 'per_month') return round(value / NIGHTS_PER_MONTH);
    return value * NIGHTS_PER_MONTH + (bound === 'max' ? NIGHTS_PER_MONTH - 1 : 0);
  };
  return { min: convert(min, Math.ceil, 'min'), max: convert(max, Math.floor, 'max') };
}

/** Whether an exact display price meets the limits. */
export function withinLimits(price: number, p: PriceLimits): boolean {
  return (p.min === null || price >= p.min) && (p.max === null || price <= p.max);
}
