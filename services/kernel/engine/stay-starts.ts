/**
 * Where a stay can begin and end, in runs of day numbers, so that a search index can answer "can this
 * stay be booked?" with range queries instead of walking the calendar (docs/design.md, "Exact prices in
 * search without scripts"). The rules are the ones `checkStay` applies ("`availability`" rules,
 * "get_quote_tool"): nights inside one bookable window, move-in allowed on the first night, move-out
 * allowed after the last (fixed stays), at least the move-in date's minimum, before must_vacate_by.
 */
import type { HomeRecord, IsoDate } from '../inventory/records';
import { latestMoveOut, minimumPieces, openBounds, openRuns, toSegments, type Run } from './calendar';
import { toDayNumber } from './dates';

/**
 * Move-in dates of one bookable window that carry the same minimum stay. Spans are day-number runs
 * (`[start, end)`, `end` Infinity when open-ended): the index stores them so (kernel/store/home-document.ts).
 */
export interface StayStartGroup {
  /** Dates a stay may move in on (move-in allowed, inside the window). */
  move_in: Run[];
  /** The subset from which a fixed stay fits: a move-out date at least the minimum later exists. */
  fixed_move_in: Run[];
  minimum_nightly_stay: number;
  /** The window's end (a day number): no stay from these dates may run past it; Infinity when open-ended. */
  window_end: number;
}

export interface StayStarts {
  groups: StayStartGroup[];
  /** The bookable windows themselves: a stay fits in one when its nights all lie inside it. */
  windows: Run[];
  /** Dates a fixed stay may move out on: its last night is open and allows move-out. */
  move_outs: Run[];
}

/** Appends `[start, end)` to sorted runs, merging it into the last one when they touch. */
function pushRun(runs: Run[], start: number, end: number): void {
  const last = runs[runs.length - 1];
  if (last !== undefined && last.end >= start) last.end = Math.max(last.end, end);
  else runs.push({ start, end });
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
      groups.push({ move_in: group.moveIn, fixed_move_in: group.fixed, minimum_nightly_stay: minimum, window_end: run.end });
    }
  }
  return { groups, windows: runs, move_outs: moveOuts };
}

/** Whether `date` lies in one of the runs. */
export function inRuns(runs: readonly Run[], date: IsoDate): boolean {
  const day = toDayNumber(date);
  return runs.some((r) => r.start <= day && day < r.end);
}
