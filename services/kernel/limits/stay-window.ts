/**
 * How far back and ahead a stay's dates may lie. The stay policies (services/stays/stay-policies.ts)
 * and the date reader apply them; the indexer's price bands cover the stays they allow; the tool
 * descriptions quote them.
 */

/** A move-in date at most this many days in the past (search, building search, apartment read). */
export const MAX_PAST_START_DAYS = 7;

/** A search's move-in date at most this many days ahead (the apartment and the building search). */
export const SEARCH_START_AHEAD_DAYS = 365;

/** No date of any stay more than this many years ahead (a centuries-long stay is a mistake, not a quote). */
export const MAX_YEARS_AHEAD = 3;

/** The most days a year has: what a stay of whole years may span at most. */
export const DAYS_IN_LONGEST_YEAR = 366;

/** A window of move-in dates (latest_start_date) ends at most this many days after its first (start_date). */
export const MAX_MOVE_IN_WINDOW_DAYS = 60;

/** The nights of a window's fixed stays (`nights`): one to three years. */
export const MAX_WINDOW_NIGHTS = 1095;
