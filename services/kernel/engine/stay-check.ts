/**
 * Whether one requested stay can be booked ("Quote": `available`, `unavailable_reason`,
 * `unbookable_reason`; "get_apartment_tool": `requested_stay`). It applies the same calendar rules
 * as the bookable windows, so a fixed stay is available iff it fits one window by that window's rules.
 */
import type { HomeRecord, IsoDate } from '../inventory/records';
import { minimumAt, minimumPieces, segmentAt, toSegments, type Segment } from './calendar';
import { fromDayNumber, toDayNumber } from './dates';
import { earliestAvailableDate } from './availability';
import { offeredTiers } from './flex';
import type { Pets, StayCheck, StayRequest } from './types';
import {
  beforeAvailableFromSentence,
  belowMinimumSentence,
  beyondCalendarSentence,
  blocked,
  closedNightSentence,
  flexOptOutSentence,
  flexTierSentence,
  moveInSentence,
  noStartSentence,
  moveOutSentence,
  noNightsSentence,
  pastMustVacateSentence,
  pastStartSentence,
  petsSentence,
  unavailable,
} from './unavailable-reasons';

/** The nights a stay occupies: a fixed stay's own, a Flex stay's committed nights ("Quote" rules). */
function stayNights(stay: StayRequest): number {
  return stay.kind === 'fixed' ? toDayNumber(stay.end_date) - toDayNumber(stay.start_date) : stay.committed_nights;
}

/** The first night of `[start, end)` a new stay cannot occupy, reported as its calendar block. */
function firstClosedNight(home: HomeRecord, segments: Segment[], start: number, end: number, stay: StayRequest): StayCheck | null {
  const mustVacateBy = home.must_vacate_by;
  const mustVacateDay = mustVacateBy === null ? Infinity : toDayNumber(mustVacateBy);
  let day = start;
  while (day < end) {
    const date = fromDayNumber(day);
    if (mustVacateBy !== null && day >= mustVacateDay) {
      // "get_quote_tool" rules: a Flex committed_nights that runs past the date the apartment must be vacated.
      const flexNights = stay.kind === 'flex' ? stay.committed_nights : null;
      return blocked(pastMustVacateSentence(mustVacateBy, flexNights), {
        code: 'past_must_vacate_by',
        date,
        range_reason: null,
      });
    }
    const seg = segmentAt(segments, day);
    if (seg === null) {
      // Nights the calendar does not cover are unknown, hence not open.
      return blocked(beyondCalendarSentence(date), { code: 'beyond_calendar', date, range_reason: null });
    }
    if (!seg.range.open_for_occupancy) {
      const reason = seg.range.unbookable_reason;
      return blocked(closedNightSentence(date, reason), { code: 'not_open_for_occupancy', date, range_reason: reason });
    }
    // Step to the next place a block can begin: the segment's end or the must-vacate date.
    day = Math.min(seg.end, mustVacateDay);
  }
  return null;
}

/** The calendar rules of "`availability`" and "Quote", in the order their blocks are reported. */
function checkCalendar(home: HomeRecord, stay: StayRequest, today: IsoDate): StayCheck | null {
  const start = toDayNumber(stay.start_date);
  const nights = stayNights(stay);
  const end = start + nights;
  if (start < toDayNumber(today)) return unavailable(pastStartSentence(stay.start_date, today));
  if (home.available_from !== null && stay.start_date < home.available_from) {
    return blocked(beforeAvailableFromSentence(home.available_from), {
      code: 'before_available_from',
      date: home.available_from,
      range_reason: null,
    });
  }
  const segments = toSegments(home.calendar);
  const closed = firstClosedNight(home, segments, start, end, stay);
  if (closed !== null) return closed;
  // Every night is now covered by an open segment, so both lookups below find one.
  const first = segmentAt(segments, start) as Segment;
  if (!first.range.move_in_allowed) {
    return blocked(moveInSentence(stay.start_date), {
      code: 'move_in_not_allowed',
      date: stay.start_date,
      range_reason: first.range.unbookable_reason,
    });
  }
  const last = segmentAt(segments, end - 1) as Segment;
  // A Flex stay is open-ended: its committed nights have no move-out date to check.
  if (stay.kind === 'fixed' && !last.range.move_out_allowed) {
    return blocked(moveOutSentence(stay.end_date), {
      code: 'move_out_not_allowed',
      date: stay.end_date,
      range_reason: last.range.unbookable_reason,
    });
  }
  // "`availability`" rules: only the minimum of the move-in date binds a stay.
  const minimum = minimumAt(minimumPieces(home), start);
  if (nights < minimum) {
    return blocked(belowMinimumSentence(stay.start_date, minimum, nights), {
      code: 'below_minimum_stay',
      date: stay.start_date,
      range_reason: null,
      minimum_nightly_stay: minimum,
    });
  }
  return null;
}

/** docs/contract.md, "Limits": "pets per quote: at most 2, cats and dogs combined". */
export const MAX_PETS_PER_STAY = 2;

/** The pets limit's sentence when the pets are more than a stay takes, else null (an error, not an unavailable stay). */
export function petsOverLimit(pets: Pets): string | null {
  return pets.cats + pets.dogs > MAX_PETS_PER_STAY ? `At most ${MAX_PETS_PER_STAY} pets per stay, cats and dogs combined.` : null;
}

/** "get_quote_tool" rules: a pet type the apartment does not allow makes the stay unavailable. */
function checkPets(home: HomeRecord, pets: Pets): StayCheck | null {
  if (pets.cats > 0 && !home.cats_allowed) return unavailable(petsSentence('cats'));
  if (pets.dogs > 0 && !home.dogs_allowed) return unavailable(petsSentence('dogs'));
  return null;
}

/**
 * "Flex options": an apartment that opts out, or a tier it does not offer, cannot host the Flex stay.
 * The one tier check: the quote and booking intent refuse with its sentence, the apartment read
 * reports it, and the index offers only tiers that pass it.
 */
export function checkFlexTier(home: HomeRecord, committedNights: number): StayCheck | null {
  if (!home.flex_eligible) return unavailable(flexOptOutSentence());
  const offered = offeredTiers(home).map((t) => t.committed_nights);
  if (!offered.includes(committedNights)) return unavailable(flexTierSentence(committedNights, offered));
  return null;
}

/** Whether any stay that meets the apartment's rules can start on `start` (a move-in date alone). */
export function checkStartOnly(home: HomeRecord, start: IsoDate, today: IsoDate): StayCheck {
  if (start < today) return unavailable(pastStartSentence(start, today));
  if (earliestAvailableDate(home, start) === start) return { available: true };
  return unavailable(noStartSentence(start, earliestAvailableDate(home, today)));
}

export function checkStay(home: HomeRecord, stay: StayRequest, pets: Pets, today: IsoDate): StayCheck {
  if (stayNights(stay) < 1) {
    return stay.kind === 'fixed' ? unavailable(noNightsSentence()) : (checkFlexTier(home, stay.committed_nights) ?? unavailable(noNightsSentence()));
  }
  // An unoffered tier first: it holds for every date, so a calendar reason would send the guest to other dates in vain.
  const verdict = (stay.kind === 'flex' ? checkFlexTier(home, stay.committed_nights) : null) ?? checkCalendar(home, stay, today) ?? checkPets(home, pets);
  return verdict ?? { available: true };
}
