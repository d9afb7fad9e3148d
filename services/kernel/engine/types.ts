/**
 * Shapes the pure stay engine returns. Field names are those of the answers (docs/contract.md,
 * "get_apartment_tool", "get_flex_options_tool", "get_quote_tool").
 */
import type { HomeRecord, IsoDate } from '../inventory/records';

export interface BookableWindow {
  start_date: IsoDate;
  /** Exclusive: the move-out date of the longest stay; null when open-ended. */
  end_date: IsoDate | null;
  /** end_date - start_date; null when open-ended. */
  nights: number | null;
  can_move_in_at_start: boolean;
  can_move_out_at_end: boolean;
  /** Effective minimum: the floor or a stricter minimum carried by the start date. */
  minimum_nightly_stay: number;
  /** False when no stay at all can be booked in this window. */
  fits_minimum_stay: boolean;
}

export interface RangeSegment {
  start_date: IsoDate;
  end_date: IsoDate | null;
  move_in_allowed: boolean;
  move_out_allowed: boolean;
  open_for_occupancy: boolean;
  unbookable_reason: string | null;
}

export interface MinimumStayByDate {
  start_date: IsoDate;
  end_date: IsoDate | null;
  minimum_nightly_stay: number;
}

export interface Availability {
  bookable_windows: BookableWindow[];
  ranges: RangeSegment[];
  earliest_available_date: IsoDate | null;
  /** Present only when the minimum varies across dates. */
  minimum_nightly_stay_by_date?: MinimumStayByDate[];
}

/**
 * What pricing reads of a home: rates, fees, discounts and Flex tiers. The search index carries
 * these (`pricing` in the home document) so a search result is priced by the same functions.
 */
export type PricingInputs = Pick<
  HomeRecord,
  | 'slug'
  | 'nightly_rate_cents'
  | 'monthly_rate_cents'
  | 'fees'
  | 'seasonal_discounts'
  | 'length_of_stay_discounts'
  | 'special_offer'
  | 'flex_eligible'
  | 'flex_tiers'
  | 'minimum_nightly_stay'
>;

/** A requested stay: fixed (start + end) or Flex (start + committed nights, end = indefinite). */
export type StayRequest = { kind: 'fixed'; start_date: IsoDate; end_date: IsoDate } | { kind: 'flex'; start_date: IsoDate; committed_nights: number };

export interface Pets {
  cats: number;
  dogs: number;
}

/** A date-specific calendar reason: which range blocked the stay and why. */
export interface UnbookableReason {
  code:
    | 'not_open_for_occupancy'
    | 'move_in_not_allowed'
    | 'move_out_not_allowed'
    | 'below_minimum_stay'
    | 'before_available_from'
    | 'past_must_vacate_by'
    | 'beyond_calendar';
  date: IsoDate;
  range_reason: string | null;
  minimum_nightly_stay?: number;
}

export type StayCheck = { available: true } | { available: false; unavailable_reason: string; unbookable_reason?: UnbookableReason };

export interface DisplayPrice {
  display_price_with_discount: number; // whole dollars
  display_price_without_discount: number; // whole dollars
  display_price_label: string;
  is_price_monthly: boolean;
  is_price_nightly: boolean;
  duration_label: '/mo' | '/night';
  price_note: string;
}

export interface ChargeSection {
  total: number; // dollars with cents, e.g. 1234.56
}

export interface ChargeSchedule {
  checkout?: ChargeSection;
  monthly?: ChargeSection;
  final_month?: ChargeSection;
  deferred?: ChargeSection;
  total_cost?: number;
}

export interface QuotePricing extends DisplayPrice {
  term_duration_label: string;
  charge_schedule: ChargeSchedule;
  monthly_total?: number;
  total_discount: number;
  currency: 'USD';
}
