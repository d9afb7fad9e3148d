import fc from 'fast-check';
import type { HomeRecord, IsoDate } from '../../../services/kernel/inventory/records';
import { computeAvailability } from '../../../services/kernel/engine/availability';
import { addDays, daysBetween } from '../../../services/kernel/engine/dates';
import { arbHome } from '../../support/arbitraries';
import { NaiveCalendar } from './naive-calendar';
import { runs } from '../../support/property-runs';

const RUNS = runs(1000);

/** A today between mid-2026 and mid-2027 with a home generated around it. */
const arbTodayAndHome: fc.Arbitrary<{ today: IsoDate; home: HomeRecord }> = fc
  .integer({ min: 0, max: 365 })
  .map((n) => addDays('2026-06-01', n))
  .chain((today) => arbHome(today).map((home) => ({ today, home })));

describe('computeAvailability (properties over random homes)', () => {
  it('returns sorted, disjoint windows from today on, with nights = end - start', () => {
    fc.assert(
      fc.property(arbTodayAndHome, ({ today, home }) => {
        const windows = computeAvailability(home, today).bookable_windows;
        windows.forEach((w, i) => {
          expect(w.start_date >= today).toBe(true);
          if (w.end_date === null) {
            expect(w.nights).toBeNull();
            expect(i).toBe(windows.length - 1);
          } else {
            expect(w.nights).toBe(daysBetween(w.start_date, w.end_date));
            expect(w.nights).toBeGreaterThan(0);
          }
          const next = windows[i + 1];
          // Maximal runs: a gap of at least one closed night separates two windows.
          if (next !== undefined) expect(w.end_date !== null && w.end_date < next.start_date).toBe(true);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('has exactly the maximal runs of open nights, with the flags, minimum and fit of a night-by-night reading', () => {
    fc.assert(
      fc.property(arbTodayAndHome, ({ today, home }) => {
        const naive = new NaiveCalendar(home, today);
        const windows = computeAvailability(home, today).bookable_windows;
        expect(windows.map((w) => ({ start: w.start_date, end: w.end_date }))).toEqual(naive.openRuns());
        for (const w of windows) {
          expect(w.can_move_in_at_start).toBe(naive.canMoveIn(w.start_date));
          expect(w.can_move_out_at_end).toBe(w.end_date === null || naive.canMoveOutAfter(addDays(w.end_date, -1)));
          expect(w.minimum_nightly_stay).toBe(naive.minimumAt(w.start_date));
          expect(w.fits_minimum_stay).toBe(naive.firstStayStart(w.start_date, w.end_date) !== null);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('gives the first date a valid stay can start, never in the past', () => {
    fc.assert(
      fc.property(arbTodayAndHome, ({ today, home }) => {
        const { earliest_available_date: earliest } = computeAvailability(home, today);
        expect(earliest).toBe(new NaiveCalendar(home, today).firstStayStart(today, null));
        if (earliest !== null) expect(earliest >= today).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('lists minimum_nightly_stay_by_date only when the minimum varies, as the runs of equal minimum from today', () => {
    fc.assert(
      fc.property(arbTodayAndHome, ({ today, home }) => {
        const naive = new NaiveCalendar(home, today);
        const lastRange = home.calendar[home.calendar.length - 1];
        const calendarEnd = lastRange.end_date ?? addDays(lastRange.start_date, 1200);
        const runs = naive.minimumRuns(today, calendarEnd, lastRange.end_date);
        const byDate = computeAvailability(home, today).minimum_nightly_stay_by_date;
        if (runs.length <= 1) expect(byDate).toBeUndefined();
        else expect(byDate).toEqual(runs);
      }),
      { numRuns: RUNS },
    );
  });

  it('clips windows and ranges to the requested dates and recomputes their fields, keeping the whole-calendar earliest date', () => {
    const arbCase = arbTodayAndHome.chain(({ today, home }) =>
      fc.record({ from: fc.integer({ min: -10, max: 560 }), length: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }) }).map(({ from, length }) => {
        const start = addDays(today, from);
        return { today, home, clip: { start_date: start, end_date: length === null ? null : addDays(start, length) } };
      }),
    );
    fc.assert(
      fc.property(arbCase, ({ today, home, clip }) => {
        const naive = new NaiveCalendar(home, today);
        const whole = computeAvailability(home, today);
        const clipped = computeAvailability(home, today, clip);
        expect(clipped.earliest_available_date).toBe(whole.earliest_available_date);
        const lower = clip.start_date > today ? clip.start_date : today;
        const expected = naive
          .openRuns()
          .map((r) => ({
            start: r.start > lower ? r.start : lower,
            end: clip.end_date === null ? r.end : r.end === null || r.end > clip.end_date ? clip.end_date : r.end,
          }))
          .filter((r) => r.end === null || r.start < r.end);
        expect(clipped.bookable_windows.map((w) => ({ start: w.start_date, end: w.end_date }))).toEqual(expected);
        for (const w of clipped.bookable_windows) {
          expect(w.minimum_nightly_stay).toBe(naive.minimumAt(w.start_date));
          expect(w.fits_minimum_stay).toBe(naive.firstStayStart(w.start_date, w.end_date) !== null);
        }
        for (const r of clipped.ranges) {
          expect(r.start_date >= lower).toBe(true);
          if (clip.end_date !== null) expect(r.end_date !== null && r.end_date <= clip.end_date).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
