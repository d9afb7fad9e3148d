/**
 * The date arguments every stay-taking tool shares (start_date, end_date, committed_nights) and
 * the spec's rules for them (section "Errors"): real dates only, start no more than 7 days in the
 * past, nothing more than 3 years ahead, `indefinite` only with committed_nights.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { badRequest } from '../kernel/errors';
import { committedNightsSchema, endDateSchema, isoDateSchema } from '../kernel/inventory/schema-pieces';
import { addDays, addYears, parseIsoDate } from '../kernel/engine/dates';
import type { IsoDate } from '../kernel/inventory/records';
import type { StayRequest } from '../kernel/engine/types';

export type StayArgs = FromSchema<{ type: 'object'; properties: typeof stayArgProperties; additionalProperties: false }>;

export type RequestedDates =
  | { kind: 'none' }
  | { kind: 'start_only'; start_date: IsoDate }
  | { kind: 'stay'; stay: StayRequest };

export interface DatePolicy {
  /** Reject a start_date more than this many days in the past (null: no limit). */
  maxPastDays: number | null;
  /** Reject a start_date more than this many days ahead (null: only the 3-year limit). */
  maxStartAheadDays: number | null;
  /** Reject dates more than 3 years ahead. */
  threeYearLimit: boolean;
}

export const APARTMENT_READ_POLICY: DatePolicy = { maxPastDays: 7, maxStartAheadDays: null, threeYearLimit: true };

export function requireDate(name: string, value: string): IsoDate {
  const date = parseIsoDate(value);
  if (!date) throw badRequest('invalid_date', `${name} "${value}" is not a real calendar date (YYYY-MM-DD).`);
  return date;
}

function checkAhead(name: string, date: IsoDate, today: IsoDate, policy: DatePolicy): void {
  if (policy.threeYearLimit && date > addYears(today, 3)) {
    throw badRequest('invalid_date', `${name} ${date} is more than 3 years ahead; choose a nearer date.`);
  }
}

export function readStayArgs(args: StayArgs, today: IsoDate, policy: DatePolicy): RequestedDates {
  if (args.start_date === undefined) {
    if (args.end_date !== undefined) throw badRequest('invalid_parameters', 'end_date needs start_date (the move-in date).');
    return { kind: 'none' };
  }
  const start = requireDate('start_date', args.start_date);
  if (policy.maxPastDays !== null && start < addDays(today, -policy.maxPastDays)) {
    throw badRequest('invalid_date', `start_date ${start} is more than ${policy.maxPastDays} days in the past.`);
  }
  if (policy.maxStartAheadDays !== null && start > addDays(today, policy.maxStartAheadDays)) {
    throw badRequest('invalid_date', `start_date ${start} is more than ${policy.maxStartAheadDays} days ahead.`);
  }
  checkAhead('start_date', start, today, policy);
  if (args.end_date === undefined) return { kind: 'start_only', start_date: start };
  if (args.end_date === 'indefinite') {
    if (args.committed_nights === undefined) {
      throw badRequest(
        'invalid_parameters',
        'end_date "indefinite" (a Flex stay) requires committed_nights; get_flex_options_tool lists the tiers the apartment accepts.',
      );
    }
    return { kind: 'stay', stay: { kind: 'flex', start_date: start, committed_nights: args.committed_nights } };
  }
  const end = requireDate('end_date', args.end_date);
  checkAhead('end_date', end, today, policy);
  if (end <= start) throw badRequest('invalid_date', `end_date ${end} must be after start_date ${start}.`);
  // committed_nights is ignored for fixed stays (spec: get_apartment_tool).
  return { kind: 'stay', stay: { kind: 'fixed', start_date: start, end_date: end } };
}

/** The date range a stay covers, for clipping calendars. */
export function stayClip(dates: RequestedDates): { start_date: IsoDate; end_date: IsoDate | null } | undefined {
  if (dates.kind === 'none') return undefined;
  if (dates.kind === 'start_only') return { start_date: dates.start_date, end_date: null };
  const s = dates.stay;
  return { start_date: s.start_date, end_date: s.kind === 'fixed' ? s.end_date : addDays(s.start_date, s.committed_nights) };
}

export const stayArgProperties = {
  start_date: { ...isoDateSchema, description: 'Move-in date, YYYY-MM-DD.' },
  end_date: endDateSchema,
  committed_nights: { ...committedNightsSchema, description: 'Flex tier (nights committed); required with end_date "indefinite", ignored for fixed stays.' },
} as const;
