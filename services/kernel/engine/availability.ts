/**
 * The `availability` object of the apartment detail ("Apartment detail" → "`availability`"):
 * bookable windows, raw ranges, earliest available date and the minimum by date.
 */
import type { HomeRecord, IsoDate } from '../inventory/records';
import {
  firstFeasibleStart,
  minimumAt,
  minimumPieces,
  openBounds,
  openRuns,
  segmentAt,
  toSegments,
  type MinimumPiece,
  type Run,
  type Segment,
} from './calendar';
import { fromDayNumber, toDayNumber } from './dates';
import type { Availability, BookableWindow, MinimumStayByDate, RangeSegment } from './types';

/** The requested stay the calendar is clipped to; end null = no upper clip. */
export interface AvailabilityClip {
  start_date: IsoDate;
  end_date: IsoDate | null;
}

function isoOrNull(day: number): IsoDate | null {
  return day === Infinity ? null : fromDayNumber(day);
}

function clipRun(run: Run, clip: Run): Run | null {
  const start = Math.max(run.start, clip.start);
  const end = Math.min(run.end, clip.end);
  return start < end ? { start, end } : null;
}

function describeWindow(segments: Segment[], pieces: MinimumPiece[], run: Run): BookableWindow {
  const first = segmentAt(segments, run.start);
  const last = run.end === Infinity ? null : segmentAt(segments, run.end - 1);
  return {
    start_date: fromDayNumber(run.start),
    end_date: isoOrNull(run.end),
    nights: run.end === Infinity ? null : run.end - run.start,
    can_move_in_at_start: first?.range.move_in_allowed ?? false,
    // An open-ended window has no last night, so nothing stops a move-out at its end.
    can_move_out_at_end: last === null ? true : last.range.move_out_allowed,
    // "`availability`" rules: the effective minimum is the one carried by the move-in date.
    minimum_nightly_stay: minimumAt(pieces, run.start),
    // "`availability`" rules: fits_minimum_stay false means the window can host no stay.
    fits_minimum_stay: firstFeasibleStart(segments, pieces, run) !== null,
  };
}

function describeRanges(segments: Segment[], clip: Run): RangeSegment[] {
  const ranges: RangeSegment[] = [];
  for (const seg of segments) {
    const part = clipRun(seg, clip);
    if (part === null) continue;
    ranges.push({
      start_date: fromDayNumber(part.start),
      end_date: isoOrNull(part.end),
      move_in_allowed: seg.range.move_in_allowed,
      move_out_allowed: seg.range.move_out_allowed,
      open_for_occupancy: seg.range.open_for_occupancy,
      unbookable_reason: seg.range.unbookable_reason,
    });
  }
  return ranges;
}

/**
 * The minimum over the calendar's dates inside `clip` (from today on, or the requested window);
 * null when it does not vary there ("present only when the minimum varies across dates").
 */
function minimumByDate(segments: Segment[], pieces: MinimumPiece[], clip: Run): MinimumStayByDate[] | null {
  if (segments.length === 0) return null;
  const calendarEnd = segments[segments.length - 1].end;
  const byDate: MinimumStayByDate[] = [];
  for (const piece of pieces) {
    const part = clipRun(piece, { start: clip.start, end: Math.min(clip.end, calendarEnd) });
    if (part === null) continue;
    byDate.push({
      start_date: fromDayNumber(part.start),
      end_date: isoOrNull(part.end),
      minimum_nightly_stay: piece.minimum,
    });
  }
  return byDate.length > 1 ? byDate : null;
}

/** "earliest_available_date ... read from the whole calendar": the first date a valid stay can start. */
function earliestStart(segments: Segment[], pieces: MinimumPiece[], runs: Run[]): number | null {
  for (const run of runs) {
    const start = firstFeasibleStart(segments, pieces, run);
    if (start !== null) return start;
  }
  return null;
}

/** The first date on or after today a stay satisfying every calendar rule can start; null when none. */
export function earliestAvailableDate(home: HomeRecord, today: IsoDate): IsoDate | null {
  const todayDay = toDayNumber(today);
  const segments = toSegments(home.calendar);
  const runs = openRuns(segments, openBounds(home, todayDay));
  const start = earliestStart(segments, minimumPieces(home), runs);
  return start === null ? null : fromDayNumber(start);
}

export function computeAvailability(home: HomeRecord, today: IsoDate, clip?: AvailabilityClip): Availability {
  const todayDay = toDayNumber(today);
  const segments = toSegments(home.calendar);
  const pieces = minimumPieces(home);
  const runs = openRuns(segments, openBounds(home, todayDay));
  // "`availability`" rules: the calendar is clipped to the start/end window when dates are passed.
  const clipRange: Run = {
    start: clip === undefined ? todayDay : Math.max(todayDay, toDayNumber(clip.start_date)),
    end: clip === undefined || clip.end_date === null ? Infinity : toDayNumber(clip.end_date),
  };
  const windows: BookableWindow[] = [];
  for (const run of runs) {
    const part = clipRun(run, clipRange);
    if (part !== null) windows.push(describeWindow(segments, pieces, part));
  }
  const earliest = earliestStart(segments, pieces, runs);
  const availability: Availability = {
    bookable_windows: windows,
    ranges: describeRanges(segments, clipRange),
    earliest_available_date: earliest === null ? null : fromDayNumber(earliest),
  };
  // Clipped like the rest of the calendar when dates are passed.
  const byDate = minimumByDate(segments, pieces, clipRange);
  if (byDate !== null) availability.minimum_nightly_stay_by_date = byDate;
  return availability;
}
