/**
 * The one reader of the date arguments (start_date, end_date, committed_nights) every stay-taking
 * tool has. The rules all tools share (docs/contract.md, "Dates") are here; what differs per tool is its
 * policy (stay-policies.ts): how far back and ahead a move-in may be, and what a Flex tier needs.
 */
import { badRequest } from '../kernel/errors';
import { addDays, addYears, daysBetween, parseIsoDate } from '../kernel/engine/dates';
import { MAX_YEARS_AHEAD } from '../kernel/limits/stay-window';
import type { IsoDate } from '../kernel/inventory/records';
import type { StayDates } from './stay-dates';
import type { StayPolicy } from './stay-policies';

export interface StayArgs {
  start_date?: string;
  end_date?: string;
  committed_nights?: number;
}

export function requireDate(name: string, value: string): IsoDate {
  const date = parseIsoDate(value);
  if (!date) throw badRequest('invalid_date', `${name} "${value}" is not a real calendar date (YYYY-MM-DD).`);
  return date;
}

function checkYearsAhead(name: string, date: IsoDate, today: IsoDate): void {
  if (date > addYears(today, MAX_YEARS_AHEAD)) {
    throw badRequest('invalid_date', `${name} ${date} is more than ${MAX_YEARS_AHEAD} years ahead; choose a nearer date.`);
  }
}

function checkStart(start: IsoDate, today: IsoDate, policy: StayPolicy): void {
  const past = policy.maxPastDays;
  if (past !== null && start < addDays(today, -past)) throw badRequest('invalid_date', `start_date ${start} is more than ${past} days in the past.`);
  const ahead = policy.startAhead;
  if (ahead && start > addDays(today, ahead.days)) {
    throw badRequest('invalid_date', `start_date ${start} is more than ${ahead.days} days ahead; ${ahead.why}.`);
  }
  checkYearsAhead('start_date', start, today);
}

export function readStay(args: StayArgs, today: IsoDate, policy: StayPolicy & { flexTier: 'required' }): StayDates<number>;
export function readStay(args: StayArgs, today: IsoDate, policy: StayPolicy): StayDates;
export function readStay(args: StayArgs, today: IsoDate, policy: StayPolicy): StayDates {
  const tierRefused = args.committed_nights !== undefined && policy.tierElsewhere === 'refused';
  if (args.start_date === undefined) {
    if (args.end_date !== undefined) throw badRequest('invalid_parameters', 'end_date needs start_date (the move-in date).');
    if (tierRefused) throw badRequest('invalid_parameters', 'committed_nights needs start_date and end_date "indefinite".');
    return { kind: 'undated' };
  }
  const start = requireDate('start_date', args.start_date);
  checkStart(start, today, policy);
  if (args.end_date === 'indefinite') {
    if (args.committed_nights === undefined && policy.flexTier === 'required') {
      throw badRequest(
        'invalid_parameters',
        'end_date "indefinite" (a Flex stay) needs committed_nights, the Flex tier (e.g. 180); get_flex_options_tool lists the tiers an apartment accepts.',
      );
    }
    return { kind: 'flex', start_date: start, committed_nights: args.committed_nights ?? null };
  }
  if (tierRefused) throw badRequest('invalid_parameters', 'committed_nights is valid only with end_date "indefinite" (a Flex stay).');
  if (args.end_date === undefined) return { kind: 'start_only', start_date: start };
  const end = requireDate('end_date', args.end_date);
  checkYearsAhead('end_date', end, today);
  if (end <= start) throw badRequest('invalid_date', `end_date ${end} must be after start_date ${start}.`);
  return { kind: 'fixed', start_date: start, end_date: end, nights: daysBetween(start, end) };
}
