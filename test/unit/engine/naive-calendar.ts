/**
 * A day-by-day reference model of the availability rules, written straight from the contract's wording
 * (every night looked up on its own) with none of the engine's segment arithmetic, for the property
 * tests to compare against.
 */
import type { HomeRecord, IsoDate } from '../../../services/kernel/inventory/records';
import { fromDayNumber, toDayNumber } from '../../../services/kernel/engine/dates';

/** Open-ended calendars are examined this many days past their last range start. */
const OPEN_ENDED_REACH = 1200;

interface NightFacts {
  open: boolean;
  moveIn: boolean;
  moveOut: boolean;
  minimum: number;
}

export class NaiveCalendar {
  /** Day number of `nights[0]`; nights outside the examined span are closed. */
  private readonly first: number;
  private readonly nights: NightFacts[] = [];

  constructor(home: HomeRecord, today: IsoDate) {
    const day = (d: IsoDate | null) => (d === null ? null : toDayNumber(d));
    const ranges = home.calendar.map((r) => ({ start: toDayNumber(r.start_date), end: day(r.end_date), range: r }));
    const rules = home.minimum_stay_rules.map((r) => ({ start: toDayNumber(r.start_date), end: toDayNumber(r.end_date), min: r.minimum_nightly_stay }));
    const todayDay = toDayNumber(today);
    const from = day(home.available_from);
    const until = day(home.must_vacate_by);
    const last = ranges[ranges.length - 1];
    const horizon = last === undefined ? todayDay : (last.end ?? last.start + OPEN_ENDED_REACH);
    this.first = Math.min(todayDay, ranges[0]?.start ?? todayDay) - 3;
    for (let d = this.first; d < horizon + 3; d++) {
      const range = ranges.find((r) => r.start <= d && (r.end === null || d < r.end))?.range ?? null;
      let minimum = home.minimum_nightly_stay;
      for (const rule of rules) if (rule.start <= d && d < rule.end) minimum = Math.max(minimum, rule.min);
      this.nights.push({
        open: range !== null && range.open_for_occupancy && d >= todayDay && (from === null || d >= from) && (until === null || d < until),
        moveIn: range?.move_in_allowed ?? false,
        moveOut: range?.move_out_allowed ?? false,
        minimum,
      });
    }
  }

  private at(d: IsoDate): NightFacts | undefined {
    return this.nights[toDayNumber(d) - this.first];
  }

  isOpen(d: IsoDate): boolean {
    return this.at(d)?.open ?? false;
  }

  /** The minimum the move-in date `d` carries; the floor outside the examined span. */
  minimumAt(d: IsoDate): number {
    return this.at(d)?.minimum ?? this.nights[this.nights.length - 1].minimum;
  }

  canMoveIn(d: IsoDate): boolean {
    return this.at(d)?.moveIn ?? false;
  }

  /** Whether a stay may end after night `d`. */
  canMoveOutAfter(d: IsoDate): boolean {
    return this.at(d)?.moveOut ?? false;
  }

  /** Every rule of a fixed stay `[s, e)`, night by night. */
  canStay(s: IsoDate, e: IsoDate): boolean {
    const start = toDayNumber(s) - this.first;
    const end = toDayNumber(e) - this.first;
    if (end <= start) return false;
    for (let i = start; i < end; i++) if (!(this.nights[i]?.open ?? false)) return false;
    return this.nights[start].moveIn && this.nights[end - 1].moveOut && end - start >= this.nights[start].minimum;
  }

  /** The first move-in date in `[from, to)` that starts a stay ending on or before `to` (to null = horizon). */
  firstStayStart(from: IsoDate, to: IsoDate | null): IsoDate | null {
    const n = this.nights;
    const last = to === null ? n.length : Math.min(toDayNumber(to) - this.first, n.length);
    for (let i = Math.max(toDayNumber(from) - this.first, 0); i < last; i++) {
      if (!n[i].open || !n[i].moveIn) continue;
      for (let j = i; j < last && n[j].open; j++) {
        if (n[j].moveOut && j + 1 - i >= n[i].minimum) return fromDayNumber(this.first + i);
      }
    }
    return null;
  }

  /** The runs of equal minimum over `[from, to)`, read date by date; the last run ends at `lastEnd`. */
  minimumRuns(from: IsoDate, to: IsoDate, lastEnd: IsoDate | null): { start_date: IsoDate; end_date: IsoDate | null; minimum_nightly_stay: number }[] {
    const runs: { start: number; end: number; minimum: number }[] = [];
    for (let d = toDayNumber(from); d < toDayNumber(to); d++) {
      const minimum = this.nights[d - this.first]?.minimum ?? this.nights[this.nights.length - 1].minimum;
      const last = runs[runs.length - 1];
      if (last !== undefined && last.minimum === minimum) last.end = d + 1;
      else runs.push({ start: d, end: d + 1, minimum });
    }
    return runs.map((r, i) => ({
      start_date: fromDayNumber(r.start),
      end_date: i === runs.length - 1 ? lastEnd : fromDayNumber(r.end),
      minimum_nightly_stay: r.minimum,
    }));
  }

  /** Maximal runs of open nights as `[start, end)`; end null when the run reaches the horizon. */
  openRuns(): { start: IsoDate; end: IsoDate | null }[] {
    const runs: { start: IsoDate; end: IsoDate | null }[] = [];
    for (let i = 0; i < this.nights.length; i++) {
      if (!this.nights[i].open) continue;
      let j = i;
      while (j < this.nights.length && this.nights[j].open) j++;
      runs.push({ start: fromDayNumber(this.first + i), end: j === this.nights.length ? null : fromDayNumber(this.first + j) });
      i = j;
    }
    return runs;
  }
}
