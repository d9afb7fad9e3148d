/**
 * A home's booking calendar and minimum-stay rules as integer day numbers, and the questions every
 * other engine module asks of them: which segment holds a night, which nights are open, what
 * minimum a move-in date carries. Works segment by segment, never day by day.
 */
import type { BookingRange, HomeRecord } from '../inventory/records';
import { toDayNumber } from './dates';

/** A calendar segment `[start, end)`; end is Infinity when the range is open-ended. */
export interface Segment {
  start: number;
  end: number;
  range: BookingRange;
}

/** A run of nights `[start, end)`; end is Infinity when open-ended. */
export interface Run {
  start: number;
  end: number;
}

/** The effective minimum over `[start, end)`: the floor or the strictest rule covering those move-in dates. */
export interface MinimumPiece {
  start: number;
  end: number;
  minimum: number;
}

export function toSegments(calendar: BookingRange[]): Segment[] {
  return calendar.map((range) => ({
    start: toDayNumber(range.start_date),
    end: range.end_date === null ? Infinity : toDayNumber(range.end_date),
    range,
  }));
}

/** The segment holding night `day`, or null when the calendar does not cover it (a gap or beyond). */
export function segmentAt(segments: Segment[], day: number): Segment | null {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const seg = segments[mid];
    if (day < seg.start) hi = mid - 1;
    else if (day >= seg.end) lo = mid + 1;
    else return seg;
  }
  return null;
}

/**
 * The nights a new stay may occupy lie in `[from, until)`: from today and `available_from` on, and
 * before `must_vacate_by` (inventory: "every stay must end on or before this date").
 */
export function openBounds(home: HomeRecord, today: number): Run {
  const availableFrom = home.available_from === null ? -Infinity : toDayNumber(home.available_from);
  const mustVacateBy = home.must_vacate_by === null ? Infinity : toDayNumber(home.must_vacate_by);
  return { start: Math.max(today, availableFrom), end: mustVacateBy };
}

/** Maximal runs of contiguous open nights inside `bounds` ("Apartment detail": bookable_windows). */
export function openRuns(segments: Segment[], bounds: Run): Run[] {
  const runs: Run[] = [];
  for (const seg of segments) {
    if (!seg.range.open_for_occupancy) continue;
    const start = Math.max(seg.start, bounds.start);
    const end = Math.min(seg.end, bounds.end);
    if (start >= end) continue;
    const last = runs[runs.length - 1];
    if (last !== undefined && last.end === start) last.end = end;
    else runs.push({ start, end });
  }
  return runs;
}

/** The minimum as a step function over all dates; pieces are sorted, contiguous and merged. */
export function minimumPieces(home: HomeRecord): MinimumPiece[] {
  const floor = home.minimum_nightly_stay;
  const rules = home.minimum_stay_rules.map((r) => ({
    start: toDayNumber(r.start_date),
    end: toDayNumber(r.end_date),
    minimum: r.minimum_nightly_stay,
  }));
  const cuts = [...new Set(rules.flatMap((r) => [r.start, r.end]))].sort((a, b) => a - b);
  const bounds = [-Infinity, ...cuts, Infinity];
  const pieces: MinimumPiece[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const start = bounds[i];
    const end = bounds[i + 1];
    let minimum = floor;
    for (const r of rules) if (r.start <= start && end <= r.end) minimum = Math.max(minimum, r.minimum);
    const last = pieces[pieces.length - 1];
    if (last !== undefined && last.minimum === minimum) last.end = end;
    else pieces.push({ start, end, minimum });
  }
  return pieces;
}

/** "Only the minimum of the move-in date binds a stay" ("`availability`" rules). */
export function minimumAt(pieces: MinimumPiece[], day: number): number {
  for (const piece of pieces) if (day < piece.end) return piece.minimum;
  return pieces[pieces.length - 1].minimum;
}

/** The latest move-out date inside a run: the end of the last segment part that allows move-out. */
export function latestMoveOut(segments: Segment[], run: Run): number | null {
  for (let i = segments.length - 1; i >= 0; i--) {
    const seg = segments[i];
    if (seg.start >= run.end || seg.end <= run.start) continue;
    if (seg.range.move_out_allowed) return Math.min(seg.end, run.end);
  }
  return null;
}

/**
 * The first move-in date of a run from which a whole stay fits inside the run: move-in allowed,
 * and a move-out date at least the move-in date's minimum later whose last night allows move-out.
 * The latest move-out date serves every move-in date, and within a stretch of one minimum the
 * earliest date is the best candidate, so only stretch starts are tried.
 */
export function firstFeasibleStart(segments: Segment[], pieces: MinimumPiece[], run: Run): number | null {
  const moveOut = latestMoveOut(segments, run);
  if (moveOut === null) return null;
  const until = Math.min(run.end, moveOut);
  for (const seg of segments) {
    if (!seg.range.move_in_allowed || seg.end <= run.start || seg.start >= until) continue;
    const from = Math.max(seg.start, run.start);
    const to = Math.min(seg.end, until);
    for (const piece of pieces) {
      if (piece.end <= from || piece.start >= to) continue;
      const candidate = Math.max(piece.start, from);
      if (candidate + Math.max(piece.minimum, 1) <= moveOut) return candidate;
    }
  }
  return null;
}
