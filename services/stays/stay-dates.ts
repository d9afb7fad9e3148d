/**
 * The stay a request names, once its date arguments are read (stays/read-stay.ts): no dates, a
 * move-in date alone, a fixed stay with its nights, or Flex (end_date "indefinite") with one tier
 * or, where the tool allows it, none (`null`: any tier the home can hold from the date).
 */
import { addDays } from '../kernel/engine/dates';
import type { IsoDate } from '../kernel/inventory/records';
import type { StayRequest } from '../kernel/engine/types';

export type StayDates<Tier extends number | null = number | null> =
  /** No dates: the engine's reference stay. */
  | { kind: 'undated' }
  /** A move-in date alone: homes a stay can start in on that date. */
  | { kind: 'start_only'; start_date: IsoDate }
  | { kind: 'fixed'; start_date: IsoDate; end_date: IsoDate; nights: number }
  | { kind: 'flex'; start_date: IsoDate; committed_nights: Tier };

/** The stay the engine checks and prices, when the dates name one (a tool whose policy requires the tier). */
export function stayRequestOf(dates: StayDates<number>): StayRequest | null {
  if (dates.kind === 'fixed') return { kind: 'fixed', start_date: dates.start_date, end_date: dates.end_date };
  if (dates.kind === 'flex') return { kind: 'flex', start_date: dates.start_date, committed_nights: dates.committed_nights };
  return null;
}

/** The date range a stay covers, for clipping calendars (open-ended for a move-in date alone). */
export function stayClip(dates: StayDates<number>): { start_date: IsoDate; end_date: IsoDate | null } | undefined {
  switch (dates.kind) {
    case 'undated':
      return undefined;
    case 'start_only':
      return { start_date: dates.start_date, end_date: null };
    case 'fixed':
      return { start_date: dates.start_date, end_date: dates.end_date };
    case 'flex':
      return { start_date: dates.start_date, end_date: addDays(dates.start_date, dates.committed_nights) };
  }
}
