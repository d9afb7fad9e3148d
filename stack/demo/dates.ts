/**
 * What the generator needs besides the engine's date arithmetic (services/kernel/engine/dates.ts,
 * which it imports directly): holidays, record timestamps and short labels. No clock read: the
 * generator stays a pure function of `today`.
 */
import type { IsoDate } from '../../services/kernel/inventory/records';
import { addDays, toDayNumber, weekday } from '../../services/kernel/engine/dates';

const MS_PER_DAY = 86_400_000;

/** A timestamp on `date` at the given UTC hour and minute. */
export function timestampOn(date: IsoDate, hour = 0, minute = 0): Date {
  return new Date(toDayNumber(date) * MS_PER_DAY + (hour * 60 + minute) * 60_000);
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
