/**
 * stayStarts: the date spans the index stores must answer "can this stay be booked?" exactly as
 * checkStay does, for random homes and stays (fixed, Flex, move-in date alone).
 */
import fc from 'fast-check';
import type { HomeRecord, IsoDate } from '../../../services/kernel/inventory/records';
import { addDays, daysBetween, toDayNumber } from '../../../services/kernel/engine/dates';
import { offeredTiers } from '../../../services/kernel/engine/flex';
import { checkStartOnly, checkStay } from '../../../services/kernel/engine/stay-check';
import { inRuns, stayStarts, type StayStarts } from '../../../services/kernel/engine/stay-starts';
import type { StayRequest } from '../../../services/kernel/engine/types';
import { arbHome, arbStay, makeHome, openRange, closedRange } from '../../support/arbitraries';
import { runs } from '../../support/property-runs';

/** A day number, as the index's range fields hold dates. */
const day = toDayNumber;

const NO_PETS = { cats: 0, dogs: 0 };

/** The search query's reading of the spans (services/search/shared/stay-clauses.ts asks the same in ES). */
function spansAdmit(starts: StayStarts, home: HomeRecord, stay: StayRequest): boolean {
  const s = stay.start_date;
  if (stay.kind === 'fixed') {
    const nights = daysBetween(s, stay.end_date);
    return (
      starts.groups.some((g) => inRuns(g.move_in, s) && g.minimum_nightly_stay <= nights && toDayNumber(stay.end_date) <= g.window_end) &&
      inRuns(starts.move_outs, stay.end_date)
    );
  }
  const cn = stay.committed_nights;
  const end = addDays(s, cn);
  return (
    offeredTiers(home).some((t) => t.committed_nights === cn) &&
    starts.groups.some((g) => inRuns(g.move_in, s) && g.minimum_nightly_stay <= cn && toDayNumber(end) <= g.window_end)
  );
}

const arbCase = fc
  .integer({ min: 0, max: 365 })
  .map((n) => addDays('2026-06-01', n))
  .chain((today: IsoDate) =>
    arbHome(today).chain((home) => fc.array(arbStay(home, today), { minLength: 8, maxLength: 8 }).map((stays) => ({ today, home, stays }))),
  );

describe('stayStarts', () => {
  it('admits a stay starting today or later exactly when checkStay says it can be booked', () => {
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const starts = stayStarts(home, today);
        for (const stay of stays) {
          if (stay.start_date < today) continue;
          if (stay.kind === 'fixed' && stay.end_date <= stay.start_date) continue;
          expect(spansAdmit(starts, home, stay)).toBe(checkStay(home, stay, NO_PETS, today).available);
        }
      }),
      { numRuns: runs(1500) },
    );
  });

  it('lists a move-in date as fixed-feasible exactly when the apartment read says a stay can start on it', () => {
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const starts = stayStarts(home, today);
        for (const stay of stays) {
          if (stay.start_date < today) continue;
          const admitted = starts.groups.some((g) => inRuns(g.fixed_move_in, stay.start_date));
          expect(admitted).toBe(checkStartOnly(home, stay.start_date, today).available);
        }
      }),
      { numRuns: runs(1000) },
    );
  });

  it('groups move-in dates by window and minimum, with move-out dates one day after allowed last nights', () => {
    const home = makeHome({
      calendar: [
        openRange('2027-01-01', '2027-01-10'),
        { ...openRange('2027-01-10', '2027-01-11'), move_in_allowed: false },
        openRange('2027-01-11', '2027-02-01'),
        closedRange('2027-02-01', '2027-02-05'),
        { ...openRange('2027-02-05', null), move_out_allowed: false },
      ],
      minimum_nightly_stay: 2,
      minimum_stay_rules: [{ start_date: '2027-01-20', end_date: '2027-01-25', minimum_nightly_stay: 7 }],
    });
    const starts = stayStarts(home, '2027-01-03');
    expect(starts.groups).toEqual([
      {
        move_in: [
          { start: day('2027-01-03'), end: day('2027-01-10') },
          { start: day('2027-01-11'), end: day('2027-01-20') },
          { start: day('2027-01-25'), end: day('2027-02-01') },
        ],
        fixed_move_in: [
          { start: day('2027-01-03'), end: day('2027-01-10') },
          { start: day('2027-01-11'), end: day('2027-01-20') },
          { start: day('2027-01-25'), end: day('2027-01-31') },
        ],
        minimum_nightly_stay: 2,
        window_end: day('2027-02-01'),
      },
      {
        move_in: [{ start: day('2027-01-20'), end: day('2027-01-25') }],
        fixed_move_in: [{ start: day('2027-01-20'), end: day('2027-01-25') }],
        minimum_nightly_stay: 7,
        window_end: day('2027-02-01'),
      },
      { move_in: [{ start: day('2027-02-05'), end: Infinity }], fixed_move_in: [], minimum_nightly_stay: 2, window_end: Infinity },
    ]);
    expect(starts.move_outs).toEqual([{ start: day('2027-01-04'), end: day('2027-02-02') }]);
  });
});
