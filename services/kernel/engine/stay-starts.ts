/**
 * Where a stay can begin and end, in spans of dates, so that a search index can answer "can this
 * stay be booked?" with range queries instead of walking the calendar (DESIGN: "Exact prices in
 * search without scripts"). The rules are the ones `checkStay` applies ("`availability`" rules,
 * "get_quote_tool"): nights inside one bookable window, move-in allowed on the first night, move-out
 * allowed after the last (fixed stays), at least the move-in date's minimum, before must_vacate_by.
 */
import type { HomeRecord, IsoDate } from '../inventory/records';
import { latestMoveOut, minimumPieces, openBounds, openRuns, toSegments, type Run } from './calendar';
import { fromDayNumber, toDayNumber } from './dates';

/** Dates `[start, end)`; `end` null when the span never closes. */
export interface DateSpan {
  start: IsoDate;
  end: IsoDate | null;
}

/** Move-in dates of one bookable window that carry the same minimum stay. */
export interface StayStartGroup {
  /** Dates a stay may move in on (move-in allowed, inside the window). */
  move_in: DateSpan[];
  /** The subset from which a fixed stay fits: a move-out date at least the minimum later exists. */
  fixed_move_in: DateSpan[];
  minimum_nightly_stay: number;
  /** The window's end: no stay from these dates may run past it; null when open-ended. */
  window_end: IsoDate | null;
}

export interface StayStarts {
  groups: StayStartGroup[];
  /** The bookable windows themselves: a stay fits in one when its nights all lie inside it. */
  windows: DateSpan[];
  /** Dates a fixed stay may move out on: its last night is open and allows move-out. */
  move_outs: DateSpan[];
}

/** Appends `[start, end)` to sorted runs, merging it into the last one when they touch. */
function pushRun(runs: Run[], start: number, end: number): void {
  const last = runs[runs.length - 1];
  if (last !== undefined && last.end >= start) last.end = Math.max(last.end, end);
  else runs.push({ start, end });
}

export function toDateSpans(runs: Run[]): DateSpan[] {
  return runs.map((r) => ({ start: fromDayNumber(r.start), end: r.end === Infinity ? null : fromDayNumber(r.end) }));
}

/** The move-in and move-out dates of every bookable window from `today` on. */
export function stayStarts(home: HomeRecord, today: IsoDate): StayStarts {
  const segments = toSegments(home.calendar);
  const pieces = minimumPieces(home);
  const runs = openRuns(segments, openBounds(home, toDayNumber(today)));
  const groups: StayStartGroup[] = [];
  const moveOuts: Run[] = [];
  for (const run of runs) {
    // "Only the minimum of the move-in date binds a stay"; a fixed stay also needs a move-out date.
    const latest = latestMoveOut(segments, run) ?? -Infinity;
    const byMinimum = new Map<number, { moveIn: Run[]; fixed: Run[] }>();
    for (const seg of segments) {
      if (seg.end <= run.start || seg.start >= run.end) continue;
      const from = Math.max(seg.start, run.start);
      const to = Math.min(seg.end, run.end);
      // A stay whose last night is d moves out on d + 1.
      if (seg.range.move_out_allowed) pushRun(moveOuts, from + 1, to + 1);
      if (!seg.range.move_in_allowed) continue;
      for (const piece of pieces) {
        const start = Math.max(from, piece.start);
        const end = Math.min(to, piece.end);
        if (start >= end) continue;
        const group = byMinimum.get(piece.minimum) ?? { moveIn: [], fixed: [] };
        byMinimum.set(piece.minimum, group);
        pushRun(group.moveIn, start, end);
        const fixedEnd = Math.min(end, latest - Math.max(piece.minimum, 1) + 1);
        if (start < fixedEnd) pushRun(group.fixed, start, fixedEnd);
      }
    }
    for (const [minimum, group] of byMinimum) {
      groups.push({
        move_in: toDateSpans(group.moveIn),
        fixed_move_in: toDateSpans(group.fixed),
        minimum_nightly_stay: minimum,
        window_end: run.end === Infinity ? null : fromDayNumber(run.end),
      });
    }
  }
  return { groups, windows: toDateSpans(runs), move_outs: toDateSpans(moveOuts) };
}

/** Whether `date` lies in one of the spans. */
export function inSpans(spans: readonly DateSpan[], date: IsoDate): boolean {
  return spans.some((s) => s.start <= date && (s.end === null || date < s.end));
}
