/**
 * Date argument names other booking APIs use. docs/contract.md ("Dates" rule 1) makes them an error naming the argument to
 * send instead, never an undated search (a caller who sent check_in would otherwise see prices for
 * dates it did not ask about). GET routes rename check_in/check_out themselves (tools' `get.renames`).
 */
export const REFUSED_DATE_NAMES: Readonly<Record<string, 'start_date' | 'end_date' | 'latest_start_date'>> = {
  check_in: 'start_date',
  checkin: 'start_date',
  start: 'start_date',
  check_out: 'end_date',
  checkout: 'end_date',
  end: 'end_date',
  latest_check_in: 'latest_start_date',
};
