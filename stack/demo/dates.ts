/**
 * Calendar helpers the generator needs beyond the engine's date arithmetic (which it reuses):
 * weekdays, month steps, holidays and timestamps. No clock read: the generator stays a pure
 * function of `today`.
 */
import type { IsoDate } from '../../services/kernel/inventory/records';
import { addDays, dayNumberOf, fromDayNumber, parseIsoDate, toDayNumber } from '../../services/kernel/engine/dates';

export { addDays, daysBetween, maxDate, minDate } from '../../services/kernel/engine/dates';
export { toDayNumber as dayNumber, fromDayNumber as isoFromDayNumber };

const MS_PER_DAY = 86_400_000;

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: IsoDate): number {
  return (toDayNumber(date) + 4) % 7; // 1970-01-01 was a Thursday
}

/** Same day of month `months` later, clamped to the month's last day (Jan 31 + 1 = Feb 28/29). */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const [y, m, d] = date.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const lastDay = dayNumberOf(year + (month === 11 ? 1 : 0), ((month + 1) % 12) + 1, 1) - dayNumberOf(year, month + 1, 1);
  return fromDayNumber(dayNumberOf(year, month + 1, Math.min(d, lastDay)));
}

/** A timestamp on `date` at the given UTC hour and minute. */
export function timestampOn(date: IsoDate, hour = 0, minute = 0): Date {
  return new Date(toDayNumber(date) * MS_PER_DAY + (hour * 60 + minute) * 60_000);
}

export function isIsoDate(value: string): boolean {
  return parseIsoDate(value) !== null;
}

/** The n-th (1-based) given weekday of a month, e.g. Thanksgiving = 4th Thursday of November. */
export function nthWeekdayOfMonth(year: number, month: number, dow: number, n: number): IsoDate {
  const first = `${year}-${String(month).padStart(2, '0')}-01`;
  const offset = (dow - weekday(first) + 7) % 7;
  return addDays(first, offset + (n - 1) * 7);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2025-03-14" → "Mar 14". */
export function monthDay(date: IsoDate): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;
}
