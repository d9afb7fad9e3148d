import fc from 'fast-check';
import type { HomeRecord, IsoDate } from '../../../services/kernel/inventory/records';
import { computeAvailability } from '../../../services/kernel/engine/availability';
import { addDays, daysBetween } from '../../../services/kernel/engine/dates';
import { checkStay } from '../../../services/kernel/engine/stay-check';
import type { Availability, StayRequest } from '../../../services/kernel/engine/types';
import { arbHome, arbStay } from '../../support/arbitraries';
import { NaiveCalendar } from './naive-calendar';
import { runs } from '../../support/property-runs';

const RUNS = runs(1000);
const NO_PETS = { cats: 0, dogs: 0 };

type FixedStay = Extract<StayRequest, { kind: 'fixed' }>;

const arbCase: fc.Arbitrary<{ today: IsoDate; home: HomeRecord; stays: StayRequest[] }> = fc
  .integer({ min: 0, max: 365 })
  .map((n) => addDays('2026-06-01', n))
  .chain((today) => arbHome(today).chain((home) => fc.array(arbStay(home, today), { minLength: 5, maxLength: 5 }).map((stays) => ({ today, home, stays }))));

/** The window rules, read from the availability object alone ("`availability`" rules). */
function fitsAWindow(availability: Availability, floor: number, stay: FixedStay): boolean {
  const { start_date: s, end_date: e } = stay;
  const nights = daysBetween(s, e);
  const rangeAt = (d: IsoDate) => availability.ranges.find((r) => r.start_date <= d && (r.end_date === null || d < r.end_date));
  const minimumAt = (d: IsoDate) =>
    availability.minimum_nightly_stay_by_date?.find((p) => p.start_date <= d && (p.end_date === null || d < p.end_date))?.minimum_nightly_stay ?? floor;
  const window = availability.bookable_windows.find((w) => w.start_date <= s && (w.end_date === null || e <= w.end_date));
  return (
    window !== undefined && nights >= 1 && rangeAt(s)?.move_in_allowed === true && rangeAt(addDays(e, -1))?.move_out_allowed === true && nights >= minimumAt(s)
  );
}

describe('checkStay (properties over random homes and stays)', () => {
  it('accepts a fixed stay exactly when it fits one bookable window by that window rules', () => {
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const availability = computeAvailability(home, today);
        for (const stay of stays) {
          if (stay.kind !== 'fixed') continue;
          expect(checkStay(home, stay, NO_PETS, today).available).toBe(fitsAWindow(availability, home.minimum_nightly_stay, stay));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('accepts a fixed stay exactly when the calendar clipped to it is one window that can host it', () => {
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        for (const stay of stays) {
          if (stay.kind !== 'fixed' || stay.start_date < today) continue;
          const windows = computeAvailability(home, today, stay).bookable_windows;
          const hosts =
            windows.length === 1 &&
            windows[0].start_date === stay.start_date &&
            windows[0].end_date === stay.end_date &&
            windows[0].can_move_in_at_start &&
            windows[0].can_move_out_at_end &&
            windows[0].minimum_nightly_stay <= (windows[0].nights ?? 0);
          expect(checkStay(home, stay, NO_PETS, today).available).toBe(hosts);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('agrees with a night-by-night reading of the rules, and explains every refusal in a sentence', () => {
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const naive = new NaiveCalendar(home, today);
        for (const stay of stays) {
          const verdict = checkStay(home, stay, NO_PETS, today);
          if (stay.kind === 'fixed') expect(verdict.available).toBe(naive.canStay(stay.start_date, stay.end_date));
          if (!verdict.available) expect(verdict.unavailable_reason).toMatch(/^[A-Z].*\.$/);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('accepts a Flex stay only on an offered tier whose committed nights are open from a move-in date', () => {
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const naive = new NaiveCalendar(home, today);
        for (const stay of stays) {
          if (stay.kind !== 'flex') continue;
          const end = addDays(stay.start_date, stay.committed_nights);
          const nightsOpen = [...Array(stay.committed_nights).keys()].every((i) => naive.isOpen(addDays(stay.start_date, i)));
          const calendarOk = nightsOpen && naive.canMoveIn(stay.start_date) && stay.committed_nights >= naive.minimumAt(stay.start_date);
          const verdict = checkStay(home, stay, NO_PETS, today);
          if (verdict.available) {
            expect(calendarOk).toBe(true);
            expect(home.flex_eligible).toBe(true);
            if (home.must_vacate_by !== null) expect(end <= home.must_vacate_by).toBe(true);
          } else if (calendarOk) {
            expect(verdict.unbookable_reason).toBeUndefined();
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
