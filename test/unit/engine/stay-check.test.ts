import type { BookingRange } from '../../../services/kernel/inventory/records';
import { checkStay } from '../../../services/kernel/engine/stay-check';
import type { StayRequest } from '../../../services/kernel/engine/types';
import { closedRange, makeHome, openRange } from '../../support/arbitraries';

const TODAY = '2026-12-01';
const NO_PETS = { cats: 0, dogs: 0 };

function fixed(start_date: string, end_date: string): StayRequest {
  return { kind: 'fixed', start_date, end_date };
}

function flex(start_date: string, committed_nights: number): StayRequest {
  return { kind: 'flex', start_date, committed_nights };
}

function range(start: string, end: string | null, flags: Partial<BookingRange>): BookingRange {
  return { ...openRange(start, end), ...flags };
}

describe('checkStay: calendar blocks', () => {
  const home = makeHome({
    minimum_nightly_stay: 3,
    calendar: [
      openRange('2027-01-01', '2027-01-03'),
      closedRange('2027-01-03', '2027-01-10', 'reserved'),
      range('2027-01-10', '2027-01-12', { move_in_allowed: false }),
      range('2027-01-12', '2027-01-20', { move_out_allowed: false }),
      openRange('2027-01-20', '2027-03-01'),
    ],
  });

  it('accepts a stay that fits one window by its rules', () => {
    expect(checkStay(home, fixed('2027-01-20', '2027-02-10'), NO_PETS, TODAY)).toEqual({ available: true });
  });

  it('refuses a stay starting before today, without a calendar reason', () => {
    const verdict = checkStay(home, fixed('2026-11-28', '2027-01-02'), NO_PETS, TODAY);
    expect(verdict).toEqual({
      available: false,
      unavailable_reason: 'The move-in date 2026-11-28 is in the past; a stay can start on 2026-12-01 at the earliest.',
    });
  });

  it('names the first closed night and the range reason (not_open_for_occupancy)', () => {
    expect(checkStay(home, fixed('2027-01-01', '2027-01-05'), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'The apartment is reserved from 2027-01-03; the stay cannot include that night.',
      unbookable_reason: { code: 'not_open_for_occupancy', date: '2027-01-03', range_reason: 'reserved' },
    });
  });

  it('refuses a move-in date whose range does not allow move-in (move_in_not_allowed)', () => {
    expect(checkStay(home, fixed('2027-01-10', '2027-01-25'), NO_PETS, TODAY)).toMatchObject({
      available: false,
      unavailable_reason: 'Move-in is not allowed on 2027-01-10; choose another move-in date.',
      unbookable_reason: { code: 'move_in_not_allowed', date: '2027-01-10', range_reason: null },
    });
  });

  it('refuses a move-out after a last night whose range does not allow it (move_out_not_allowed)', () => {
    expect(checkStay(home, fixed('2027-01-12', '2027-01-18'), NO_PETS, TODAY)).toMatchObject({
      available: false,
      unavailable_reason: 'Move-out is not allowed on 2027-01-18; choose another move-out date.',
      unbookable_reason: { code: 'move_out_not_allowed', date: '2027-01-18' },
    });
    // The same nights are fine once the stay runs on into a range that allows move-out.
    expect(checkStay(home, fixed('2027-01-12', '2027-01-21'), NO_PETS, TODAY)).toEqual({ available: true });
  });

  it('refuses a stay shorter than the minimum of its move-in date (below_minimum_stay)', () => {
    expect(checkStay(home, fixed('2027-01-20', '2027-01-22'), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'A stay moving in on 2027-01-20 must be at least 3 nights; this stay has 2.',
      unbookable_reason: { code: 'below_minimum_stay', date: '2027-01-20', range_reason: null, minimum_nightly_stay: 3 },
    });
  });

  it('refuses nights past the end of the calendar (beyond_calendar)', () => {
    expect(checkStay(home, fixed('2027-02-20', '2027-03-05'), NO_PETS, TODAY)).toMatchObject({
      available: false,
      unbookable_reason: { code: 'beyond_calendar', date: '2027-03-01', range_reason: null },
    });
  });

  it('refuses a start before available_from (before_available_from)', () => {
    const later = makeHome({ available_from: '2027-02-01' });
    expect(checkStay(later, fixed('2027-01-20', '2027-02-10'), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'The apartment is available from 2027-02-01; the stay cannot start before that date.',
      unbookable_reason: { code: 'before_available_from', date: '2027-02-01', range_reason: null },
    });
  });

  it('refuses a stay ending after must_vacate_by, and accepts one ending on it (past_must_vacate_by)', () => {
    const lease = makeHome({ must_vacate_by: '2027-03-01' });
    expect(checkStay(lease, fixed('2027-02-01', '2027-03-01'), NO_PETS, TODAY)).toEqual({ available: true });
    expect(checkStay(lease, fixed('2027-02-01', '2027-03-02'), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'The apartment must be vacated by 2027-03-01; the stay must end on or before that date.',
      unbookable_reason: { code: 'past_must_vacate_by', date: '2027-03-01', range_reason: null },
    });
  });

  it('refuses a stay whose move-out date is not after its move-in date', () => {
    expect(checkStay(home, fixed('2027-01-20', '2027-01-20'), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'The move-out date must be after the move-in date.',
    });
  });
});

describe('checkStay: pets', () => {
  it('refuses cats or dogs the apartment does not allow with a sentence and no calendar reason', () => {
    const noCats = makeHome({ cats_allowed: false });
    expect(checkStay(noCats, fixed('2027-01-01', '2027-02-01'), { cats: 1, dogs: 0 }, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'This apartment does not allow cats.',
    });
    expect(checkStay(noCats, fixed('2027-01-01', '2027-02-01'), { cats: 0, dogs: 2 }, TODAY)).toEqual({ available: true });
    const noDogs = makeHome({ dogs_allowed: false });
    expect(checkStay(noDogs, fixed('2027-01-01', '2027-02-01'), { cats: 0, dogs: 1 }, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'This apartment does not allow dogs.',
    });
  });

  it('reports a calendar block before a pet refusal', () => {
    const noCats = makeHome({ cats_allowed: false });
    expect(checkStay(noCats, fixed('2027-12-20', '2028-01-05'), { cats: 1, dogs: 0 }, TODAY)).toMatchObject({
      unbookable_reason: { code: 'beyond_calendar' },
    });
  });
});

describe('checkStay: Flex stays', () => {
  it('accepts an offered tier whose committed nights are open, with no move-out check', () => {
    const home = makeHome({ calendar: [openRange('2027-01-01', '2027-12-01'), range('2027-12-01', '2028-01-01', { move_out_allowed: false })] });
    expect(checkStay(home, flex('2027-01-01', 180), NO_PETS, TODAY)).toEqual({ available: true });
    expect(checkStay(home, flex('2027-01-01', 365), NO_PETS, TODAY)).toEqual({ available: true });
  });

  it('refuses a commitment that runs past must_vacate_by with the Flex sentence', () => {
    const lease = makeHome({ must_vacate_by: '2027-05-01' });
    expect(checkStay(lease, flex('2027-01-01', 180), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'The Flex commitment of 180 nights would run past 2027-05-01, the date the apartment must be vacated.',
      unbookable_reason: { code: 'past_must_vacate_by', date: '2027-05-01', range_reason: null },
    });
  });

  it('refuses a commitment that runs into a closed range or past the calendar', () => {
    const reserved = makeHome({ calendar: [openRange('2027-01-01', '2027-05-01'), closedRange('2027-05-01', '2028-01-01', 'owner_hold')] });
    expect(checkStay(reserved, flex('2027-01-01', 180), NO_PETS, TODAY)).toMatchObject({
      unavailable_reason: 'The apartment is held by its owner from 2027-05-01; the stay cannot include that night.',
      unbookable_reason: { code: 'not_open_for_occupancy', range_reason: 'owner_hold' },
    });
    expect(checkStay(makeHome(), flex('2027-09-01', 180), NO_PETS, TODAY)).toMatchObject({
      unbookable_reason: { code: 'beyond_calendar', date: '2028-01-01' },
    });
  });

  it('refuses an apartment that opts out of Flex, and a tier it does not offer', () => {
    expect(checkStay(makeHome({ flex_eligible: false }), flex('2027-01-01', 180), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'This apartment does not accept Flex stays.',
    });
    expect(checkStay(makeHome(), flex('2027-01-01', 270), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'This apartment does not offer a Flex commitment of 270 nights; offered commitments: 180 nights, 365 nights.',
    });
  });

  it('names the unoffered tier, not a calendar block, when both stand in the way (no other date would help)', () => {
    const reserved = makeHome({ flex_eligible: false, calendar: [openRange('2027-01-01', '2027-03-01'), closedRange('2027-03-01', '2028-01-01', 'reserved')] });
    expect(checkStay(reserved, flex('2027-01-01', 180), NO_PETS, TODAY)).toEqual({
      available: false,
      unavailable_reason: 'This apartment does not accept Flex stays.',
    });
  });
});
