/**
 * Money rounding and the price texts of "Search result" / "Quote": display_price_label,
 * duration_label, price_note, term_duration_label. Written once so search, detail and quote agree.
 */
import type { DisplayPrice } from './types';

/** "Search result": price_note states that the price includes all fees except taxes. */
export const PRICE_NOTE = 'Includes all fees except taxes.';

/** Nights per statement and per priced month. */
export const NIGHTS_PER_MONTH = 30;

/** Math.round(numerator / denominator) on exact integers (half rounds up, as Math.round does). */
export function roundDiv(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** Cents to dollars with cents ("Quote": charge_schedule reports cents as e.g. 1234.56). */
export function toDollars(cents: number): number {
  return cents / 100;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function nightsText(nights: number): string {
  return plural(nights, 'night', 'nights');
}

/** "2 months 10 days": whole 30-night months then the remaining nights; zero parts omitted. */
export function monthsDaysText(nights: number): string {
  const months = Math.floor(nights / NIGHTS_PER_MONTH);
  const days = nights % NIGHTS_PER_MONTH;
  const parts: string[] = [];
  if (months > 0) parts.push(plural(months, 'month', 'months'));
  if (days > 0 || months === 0) parts.push(plural(days, 'day', 'days'));
  return parts.join(' ');
}

/** A fixed stay under 30 nights is priced per night, from 30 nights per month. */
export function isMonthlyStay(nights: number): boolean {
  return nights >= NIGHTS_PER_MONTH;
}

export function fixedTermLabel(nights: number): string {
  return isMonthlyStay(nights) ? monthsDaysText(nights) : nightsText(nights);
}

export function fixedPriceLabel(nights: number): string {
  return isMonthlyStay(nights) ? `per month for ${monthsDaysText(nights)}` : `per night for ${nightsText(nights)}`;
}

export function flexMonths(committedNights: number): number {
  return Math.round(committedNights / NIGHTS_PER_MONTH);
}

export function flexTermLabel(committedNights: number): string {
  return `${plural(flexMonths(committedNights), 'month', 'months')} committed`;
}

export function flexPriceLabel(committedNights: number): string {
  return `per month with a ${flexMonths(committedNights)}-month Flex commitment`;
}

/** The display fields shared by search results, apartment detail and quote ("Search result"). */
export function displayFields(withDiscount: number, withoutDiscount: number, label: string, monthly: boolean): DisplayPrice {
  return {
    display_price_with_discount: withDiscount,
    display_price_without_discount: withoutDiscount,
    display_price_label: label,
    is_price_monthly: monthly,
    is_price_nightly: !monthly,
    duration_label: monthly ? '/mo' : '/night',
    price_note: PRICE_NOTE,
  };
}
