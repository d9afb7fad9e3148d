import type { BookingRange } from '../../../services/kernel/inventory/records';
import { computeAvailability } from '../../../services/kernel/engine/availability';
import { checkStay } from '../../../services/kernel/engine/stay-check';
import { closedRange, makeHome, openRange } from '../../support/arbitraries';

const TODAY = '2026-12-01';
const NO_PETS = { cats: 0, dogs: 0 };

function range(start: string, end: string | null, flags: Partial<BookingRange>): BookingRange {
  return { ...openRange(start, end), ...flags };
}

describe('computeAvailability: bookable windows', () => {
  it('joins contiguous open ranges into one window whose end is the exclusive move-out date', () => {
    const home = makeHome({
      calendar: [
        openRange('2027-01-01', '2027-02-01'),
        range('2027-02-01', '2027-02-10', { move_in_allowed: false }),
        closedRange('2027-02-10', '2027-03-01'),
        openRange('2027-03-01', null),
      ],
    });
    const { bookable_windows: windows } = computeAvailability(home, TODAY);
    expect(windows).toEqual([
      {
        start_date: '2027-01-01',
        end_date: '2027-02-10',
        nights: 40,
        can_move_in_at_start: true,
        can_move_out_at_end: true,
        minimum_nightly_stay: 1,
        fits_minimum_stay: true,
      },
      {
        start_date: '2027-03-01',
        end_date: null,
        nights: null,
        can_move_in_at_start: true,
        can_move_out_at_end: true,
        minimum_nightly_stay: 1,
        fits_minimum_stay: true,
      },
    ]);
  });

  it('reads move-in from the range holding the start and move-out from the range holding the last night', () => {
    const home = makeHome({
      calendar: [
        range('2027-01-01', '2027-01-02', { move_in_allowed: false }),
        openRange('2027-01-02', '2027-01-20'),
        range('2027-01-20', '2027-01-21', { move_out_allowed: false }),
        closedRange('2027-01-21', '2027-02-01'),
      ],
    });
    const [window] = computeAvailability(home, TODAY).bookable_windows;
    expect(window).toMatchObject({ start_date: '2027-01-01', end_date: '2027-01-21', can_move_in_at_start: false, can_move_out_at_end: false });
    expect(window.fits_minimum_stay).toBe(true);
  });

  it('starts no window before today, available_from, and ends every window by must_vacate_by', () => {
    const home = makeHome({ calendar: [openRange('2026-11-01', null)], available_from: '2026-12-10', must_vacate_by: '2027-06-01' });
    expect(computeAvailability(home, TODAY).bookable_windows).toMatchObject([{ start_date: '2026-12-10', end_date: '2027-06-01', nights: 173 }]);
    const started = makeHome({ calendar: [openRange('2026-11-01', '2027-01-01')] });
    expect(computeAvailability(started, TODAY).bookable_windows[0].start_date).toBe(TODAY);
  });

  it('gives a window the effective minimum of its start date: the floor or a stricter rule there', () => {
    const home = makeHome({
      minimum_nightly_stay: 3,
      minimum_stay_rules: [{ start_date: '2027-01-01', end_date: '2027-01-15', minimum_nightly_stay: 10 }],
      calendar: [openRange('2027-01-01', '2027-02-01'), closedRange('2027-02-01', '2027-03-01'), openRange('2027-03-01', '2027-04-01')],
    });
    const windows = computeAvailability(home, TODAY).bookable_windows;
    expect(windows.map((w) => w.minimum_nightly_stay)).toEqual([10, 3]);
  });

  it('marks a window that can host no stay with fits_minimum_stay false', () => {
    const tooShort = makeHome({ minimum_nightly_stay: 7, calendar: [openRange('2027-01-01', '2027-01-06')] });
    expect(computeAvailability(tooShort, TODAY).bookable_windows[0]).toMatchObject({ nights: 5, fits_minimum_stay: false });

    // Long enough, but the only move-in date leaves too few nights before the last move-out date.
    const lateMoveIn = makeHome({
      minimum_nightly_stay: 7,
      calendar: [range('2027-01-01', '2027-01-25', { move_in_allowed: false }), openRange('2027-01-25', '2027-01-30')],
    });
    expect(computeAvailability(lateMoveIn, TODAY).bookable_windows[0]).toMatchObject({ nights: 29, fits_minimum_stay: false });

    // No range of the window allows a move-out at all.
    const noMoveOut = makeHome({ calendar: [range('2027-01-01', '2027-03-01', { move_out_allowed: false })] });
    expect(computeAvailability(noMoveOut, TODAY).bookable_windows[0].fits_minimum_stay).toBe(false);
  });

  it('lets a stricter stretch inside a window bind only the stays that start there', () => {
    const home = makeHome({
      minimum_nightly_stay: 2,
      minimum_stay_rules: [{ start_date: '2027-01-10', end_date: '2027-01-20', minimum_nightly_stay: 30 }],
      calendar: [openRange('2027-01-01', '2027-01-25'), closedRange('2027-01-25', '2027-03-01')],
    });
    const [window] = computeAvailability(home, TODAY).bookable_windows;
    expect(window).toMatchObject({ minimum_nightly_stay: 2, fits_minimum_stay: true });
    expect(checkStay(home, { kind: 'fixed', start_date: '2027-01-05', end_date: '2027-01-24' }, NO_PETS, TODAY)).toEqual({ available: true });
    expect(checkStay(home, { kind: 'fixed', start_date: '2027-01-12', end_date: '2027-01-17' }, NO_PETS, TODAY)).toMatchObject({
      available: false,
      unbookable_reason: { code: 'below_minimum_stay', minimum_nightly_stay: 30 },
    });
  });

  it('fits an open-ended window that has a move-in date and a move-out somewhere after it', () => {
    const openEnded = makeHome({ minimum_nightly_stay: 90, calendar: [range('2027-01-01', null, { move_in_allowed: true })] });
    expect(computeAvailability(openEnded, TODAY).bookable_windows[0]).toMatchObject({ end_date: null, fits_minimum_stay: true });
    const neverOut = makeHome({
      minimum_nightly_stay: 90,
      calendar: [openRange('2027-01-01', '2027-01-31'), range('2027-01-31', null, { move_out_allowed: false })],
    });
    expect(computeAvailability(neverOut, TODAY).bookable_windows[0].fits_minimum_stay).toBe(false);
  });
});

describe('computeAvailability: earliest_available_date', () => {
  it('is the first date a stay satisfying every rule can start, skipping windows that fit none', () => {
    const home = makeHome({
      minimum_nightly_stay: 5,
      calendar: [
        openRange('2027-01-01', '2027-01-04'),
        closedRange('2027-01-04', '2027-01-10'),
        range('2027-01-10', '2027-01-12', { move_in_allowed: false }),
        openRange('2027-01-12', '2027-02-01'),
      ],
    });
    expect(computeAvailability(home, TODAY).earliest_available_date).toBe('2027-01-12');
  });

  it('reads the whole calendar, not the clipped part', () => {
    const home = makeHome();
    const clipped = computeAvailability(home, TODAY, { start_date: '2027-06-01', end_date: '2027-06-10' });
    expect(clipped.earliest_available_date).toBe('2027-01-01');
  });

  it('is never in the past, and null when no stay can start', () => {
    const started = makeHome({ calendar: [openRange('2026-10-01', '2027-03-01')] });
    expect(computeAvailability(started, TODAY).earliest_available_date).toBe(TODAY);
    const closed = makeHome({ calendar: [closedRange('2026-10-01', '2027-03-01')] });
    expect(computeAvailability(closed, TODAY).earliest_available_date).toBeNull();
  });

  it('honours available_from and a stricter minimum at the earliest dates', () => {
    const home = makeHome({
      available_from: '2027-01-05',
      minimum_stay_rules: [{ start_date: '2027-01-05', end_date: '2027-01-08', minimum_nightly_stay: 400 }],
    });
    expect(computeAvailability(home, TODAY).earliest_available_date).toBe('2027-01-08');
  });
});

describe('computeAvailability: minimum_nightly_stay_by_date', () => {
  it('is absent when the minimum does not vary over the calendar from today on', () => {
    expect(computeAvailability(makeHome({ minimum_nightly_stay: 3 }), TODAY)).not.toHaveProperty('minimum_nightly_stay_by_date');
    const pastRule = makeHome({ minimum_stay_rules: [{ start_date: '2026-10-01', end_date: '2026-11-01', minimum_nightly_stay: 30 }] });
    expect(computeAvailability(pastRule, TODAY)).not.toHaveProperty('minimum_nightly_stay_by_date');
    const sameAsFloor = makeHome({
      minimum_nightly_stay: 5,
      minimum_stay_rules: [{ start_date: '2027-02-01', end_date: '2027-03-01', minimum_nightly_stay: 5 }],
    });
    expect(computeAvailability(sameAsFloor, TODAY)).not.toHaveProperty('minimum_nightly_stay_by_date');
  });

  it('covers today to the calendar end in segments of one minimum when a rule makes it vary', () => {
    const home = makeHome({
      minimum_nightly_stay: 2,
      minimum_stay_rules: [{ start_date: '2027-02-01', end_date: '2027-03-01', minimum_nightly_stay: 14 }],
    });
    expect(computeAvailability(home, TODAY).minimum_nightly_stay_by_date).toEqual([
      { start_date: TODAY, end_date: '2027-02-01', minimum_nightly_stay: 2 },
      { start_date: '2027-02-01', end_date: '2027-03-01', minimum_nightly_stay: 14 },
      { start_date: '2027-03-01', end_date: '2028-01-01', minimum_nightly_stay: 2 },
    ]);
    const openEnded = makeHome({ calendar: [openRange('2027-01-01', null)], minimum_stay_rules: home.minimum_stay_rules });
    expect(computeAvailability(openEnded, TODAY).minimum_nightly_stay_by_date?.at(-1)?.end_date).toBeNull();
  });
});

describe('computeAvailability: minimum_nightly_stay_by_date on a dated read', () => {
  const home = makeHome({
    minimum_nightly_stay: 2,
    minimum_stay_rules: [{ start_date: '2027-02-01', end_date: '2027-03-01', minimum_nightly_stay: 14 }],
  });

  it('is clipped to the requested window like the rest of the calendar', () => {
    expect(computeAvailability(home, TODAY, { start_date: '2027-01-20', end_date: '2027-02-10' }).minimum_nightly_stay_by_date).toEqual([
      { start_date: '2027-01-20', end_date: '2027-02-01', minimum_nightly_stay: 2 },
      { start_date: '2027-02-01', end_date: '2027-02-10', minimum_nightly_stay: 14 },
    ]);
  });

  it('is absent when the minimum does not vary inside the window, though it varies elsewhere', () => {
    expect(computeAvailability(home, TODAY, { start_date: '2027-01-05', end_date: '2027-01-25' })).not.toHaveProperty('minimum_nightly_stay_by_date');
    expect(computeAvailability(home, TODAY, { start_date: '2027-02-03', end_date: '2027-02-20' })).not.toHaveProperty('minimum_nightly_stay_by_date');
  });
});

describe('computeAvailability: clipped to the requested dates', () => {
  const home = makeHome({
    minimum_nightly_stay: 2,
    minimum_stay_rules: [{ start_date: '2027-01-10', end_date: '2027-01-12', minimum_nightly_stay: 20 }],
    calendar: [openRange('2027-01-01', '2027-01-15'), range('2027-01-15', '2027-02-01', { move_out_allowed: false })],
  });

  it('clips windows and recomputes their nights, flags, minimum and fit for the clipped part', () => {
    const availability = computeAvailability(home, TODAY, { start_date: '2027-01-10', end_date: '2027-01-20' });
    expect(availability.bookable_windows).toEqual([
      {
        start_date: '2027-01-10',
        end_date: '2027-01-20',
        nights: 10,
        can_move_in_at_start: true,
        can_move_out_at_end: false,
        minimum_nightly_stay: 20,
        fits_minimum_stay: true,
      },
    ]);
  });

  it('clips the raw ranges the same way', () => {
    const { ranges } = computeAvailability(home, TODAY, { start_date: '2027-01-10', end_date: '2027-01-20' });
    expect(ranges.map((r) => [r.start_date, r.end_date, r.move_out_allowed])).toEqual([
      ['2027-01-10', '2027-01-15', true],
      ['2027-01-15', '2027-01-20', false],
    ]);
  });

  it('clips only from below when the end is open (a Flex stay)', () => {
    const { bookable_windows: windows } = computeAvailability(home, TODAY, { start_date: '2027-01-20', end_date: null });
    expect(windows).toMatchObject([{ start_date: '2027-01-20', end_date: '2027-02-01', nights: 12, fits_minimum_stay: false }]);
  });

  it('drops the ranges that ended before today and starts the first one today', () => {
    const started = makeHome({ calendar: [closedRange('2026-10-01', '2026-11-15'), openRange('2026-11-15', '2027-02-01')] });
    expect(computeAvailability(started, TODAY).ranges).toEqual([{ ...openRange(TODAY, '2027-02-01') }]);
  });
});
