/**
 * The availability overview's windows (docs/contract.md, availability_overview_tool rule 1), one rule for the
 * indexer that writes them and the tool that reads them: a window that cannot host a stay is left out
 * ("windows shorter than their own minimum are left out": fewer nights than its start date's minimum,
 * even when a later move-in with a smaller minimum would fit; the compact form cannot say so, the
 * apartment read shows it); its minimum is given only when stricter than the apartment's floor; a
 * window that ended by today is gone, and `ed` is never in the past.
 */
import type { BookableWindow } from './types';

/** `w[]` of the overview: s start, e end (absent = open-ended), n nights, mi / mo, ms when stricter. */
export interface CompactWindow {
  s: string;
  e?: string;
  n?: number;
  mi: boolean;
  mo: boolean;
  ms?: number;
}

/** Whether a bookable window can host a stay at all: it fits its own start date's minimum. */
export function hostsAStay(w: BookableWindow): boolean {
  return w.fits_minimum_stay && (w.nights === null || w.nights >= w.minimum_nightly_stay);
}

/** The overview's windows of a calendar, in compact keys, for an apartment whose floor is `floor` nights. */
export function overviewWindows(windows: readonly BookableWindow[], floor: number): CompactWindow[] {
  return windows.filter(hostsAStay).map((w) => ({
    s: w.start_date,
    ...(w.end_date !== null ? { e: w.end_date } : {}),
    ...(w.nights !== null ? { n: w.nights } : {}),
    mi: w.can_move_in_at_start,
    mo: w.can_move_out_at_end,
    ...(w.minimum_nightly_stay > floor ? { ms: w.minimum_nightly_stay } : {}),
  }));
}

/** The windows of a day's index still open on `today` (the index is built for its day; read later, some ended). */
export function windowsStillOpen(windows: readonly CompactWindow[], today: string): CompactWindow[] {
  return windows.filter((w) => w.e === undefined || w.e > today);
}

/** `ed`, never in the past: the indexed earliest date while it is ahead, else the first move-in still ahead. */
export function earliestAhead(indexed: string | null, open: readonly CompactWindow[], today: string): string | undefined {
  if (indexed !== null && indexed >= today) return indexed;
  return open.find((w) => w.s >= today && w.mi)?.s;
}
