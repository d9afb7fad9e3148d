/**
 * The date rules of each stay-taking tool, side by side (docs/contract.md, "Dates", "Limits" and each tool's
 * section), from the windows of kernel/limits/stay-window.ts. What every tool shares is in
 * read-stay.ts: real dates only, an end after its start, nothing more than MAX_YEARS_AHEAD years
 * ahead, end_date needs start_date.
 */
import { MAX_PAST_START_DAYS, SEARCH_START_AHEAD_DAYS } from '../kernel/limits/stay-window';

export interface StayPolicy {
  /** Reject a start_date more than this many days in the past (null: no limit). */
  maxPastDays: number | null;
  /** How far ahead a start_date may be, and the reason said when it is further (null: only the 3-year rule). */
  startAhead: { days: number; why: string } | null;
  /**
   * end_date "indefinite" without committed_nights: `required` refuses it, `optional` reads it as
   * any tier (the search lists every apartment open to a Flex stay).
   */
  flexTier: 'required' | 'optional';
  /** committed_nights beside anything but "indefinite": `refused` (search), or `ignored` (docs/contract.md, "Dates" rule 5). */
  tierElsewhere: 'refused' | 'ignored';
}

/** search_apartments_tool, search_apartments_on_map: "Limits" (a year ahead, a week past) and rule 3. */
export const SEARCH_STAY_POLICY = {
  maxPastDays: MAX_PAST_START_DAYS,
  startAhead: { days: SEARCH_START_AHEAD_DAYS, why: 'search can look a year ahead' },
  flexTier: 'optional',
  tierElsewhere: 'refused',
} as const satisfies StayPolicy;

/** search_properties_tool: a year ahead as the apartment search, but Flex names its tier. */
export const BUILDING_STAY_POLICY = {
  maxPastDays: MAX_PAST_START_DAYS,
  startAhead: { days: SEARCH_START_AHEAD_DAYS, why: 'the building search looks a year ahead' },
  flexTier: 'required',
  tierElsewhere: 'ignored',
} as const satisfies StayPolicy;

/** get_apartment_tool: no move-in more than a week past; a tier without "indefinite" is checked on its own by the tool. */
export const APARTMENT_STAY_POLICY = {
  maxPastDays: MAX_PAST_START_DAYS,
  startAhead: null,
  flexTier: 'required',
  tierElsewhere: 'ignored',
} as const satisfies StayPolicy;

/** get_quote_tool, and booking_intent_tool ("dates checked as the quote checks them"). */
export const QUOTE_STAY_POLICY = {
  maxPastDays: null,
  startAhead: null,
  flexTier: 'required',
  tierElsewhere: 'ignored',
} as const satisfies StayPolicy;
