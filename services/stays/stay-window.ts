/**
 * A window of move-in dates (docs/contract.md, "A window of move-in dates"): the search's
 * start_date is the earliest move-in, latest_start_date the latest, and every stay of the window has
 * one length, `nights` (a fixed stay) or a Flex tier (end_date "indefinite" with committed_nights).
 * This file reads those arguments and refuses the combinations the contract refuses; the search
 * then picks each home's best start (kernel/engine/best-start.ts).
 */
import { badRequest } from '../kernel/errors';
import { addDays, addYears, daysBetween } from '../kernel/engine/dates';
import { stayOfLength, type StayLength } from '../kernel/engine/best-start';
import type { StayRequest } from '../kernel/engine/types';
import type { IsoDate } from '../kernel/inventory/records';
import { MAX_MOVE_IN_WINDOW_DAYS, MAX_WINDOW_NIGHTS, MAX_YEARS_AHEAD } from '../kernel/limits/stay-window';
import { isoDateSchema } from '../kernel/inventory/schema-pieces';
import { readStay, requireDate, type StayArgs } from './read-stay';
import type { StayDates } from './stay-dates';
import type { StayPolicy } from './stay-policies';

export interface StayWindow {
  /** The earliest move-in (start_date). */
  earliest: IsoDate;
  /** The latest move-in (latest_start_date), on or after `earliest`. */
  latest: IsoDate;
  length: StayLength;
}

export interface WindowArgs extends StayArgs {
  latest_start_date?: string;
  nights?: number;
}

/** The two arguments a window adds to a search, as JSON Schema. */
export const windowArgProperties = {
  latest_start_date: {
    ...isoDateSchema,
    description:
      `Latest move-in, YYYY-MM-DD, on or after start_date and at most ${MAX_MOVE_IN_WINDOW_DAYS} days after it: a window of move-in dates. ` +
      'Each apartment then shows its best stay in the window (stay): the cheapest start, ties to the earliest. ' +
      'Needs nights, or end_date "indefinite" with committed_nights.',
  },
  nights: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_WINDOW_NIGHTS,
    description: `Length of every stay of the window in nights (1 to ${MAX_WINDOW_NIGHTS}); only with latest_start_date, never with end_date.`,
  },
} as const;

const TWO_LENGTHS =
  'A window of move-in dates (latest_start_date) takes the length of the stay as nights (a fixed stay), or end_date "indefinite" with committed_nights (Flex).';

/**
 * The window the arguments name, or null when they name none (the search reads start_date/end_date
 * as a single stay). Refuses: latest_start_date before start_date or more than the window's days
 * after it, or past the policy's reach; a move-out date beside latest_start_date; nights with
 * "indefinite"; nights without latest_start_date; a window without a length.
 */
export function readStayWindow(args: WindowArgs, today: IsoDate, policy: StayPolicy): StayWindow | null {
  const { latest_start_date: latestArg, nights, ...stayArgs } = args;
  if (nights !== undefined && stayArgs.end_date === 'indefinite') {
    throw badRequest(
      'invalid_parameters',
      `nights is the length of a fixed stay; a Flex stay (end_date "indefinite") is as long as its committed_nights. ${TWO_LENGTHS}`,
    );
  }
  if (latestArg === undefined) {
    if (nights !== undefined) {
      throw badRequest('invalid_parameters', `nights needs latest_start_date (a window of move-in dates); for one stay pass start_date and end_date.`);
    }
    return null;
  }
  if (stayArgs.start_date === undefined) throw badRequest('invalid_parameters', 'latest_start_date needs start_date, the earliest move-in.');
  if (stayArgs.end_date !== undefined && stayArgs.end_date !== 'indefinite') {
    throw badRequest('invalid_parameters', `latest_start_date takes no move-out date (end_date ${stayArgs.end_date}). ${TWO_LENGTHS}`);
  }
  // The earliest move-in, by every rule a search's start_date has (the latest is checked by the same rules below).
  const first = readStay(stayArgs, today, policy);
  const latest = requireDate('latest_start_date', latestArg);
  if (first.kind !== 'start_only' && first.kind !== 'flex') throw new Error(`a window's first move-in read as ${first.kind}`);
  const earliest = first.start_date;
  const ahead = policy.startAhead;
  if (ahead && latest > addDays(today, ahead.days)) {
    throw badRequest('invalid_date', `latest_start_date ${latest} is more than ${ahead.days} days ahead; ${ahead.why}.`);
  }
  if (latest < earliest) throw badRequest('invalid_date', `latest_start_date ${latest} is before start_date ${earliest}.`);
  if (daysBetween(earliest, latest) > MAX_MOVE_IN_WINDOW_DAYS) {
    throw badRequest(
      'invalid_date',
      `latest_start_date ${latest} is more than ${MAX_MOVE_IN_WINDOW_DAYS} days after start_date ${earliest}; search a shorter window.`,
    );
  }
  if (first.kind === 'flex') {
    if (first.committed_nights === null) {
      throw badRequest(
        'invalid_parameters',
        'A window of Flex move-in dates needs committed_nights, the Flex tier (e.g. 180); get_flex_options_tool lists the tiers an apartment accepts.',
      );
    }
    return { earliest, latest, length: { kind: 'flex', committed_nights: first.committed_nights } };
  }
  if (nights === undefined) throw badRequest('invalid_parameters', TWO_LENGTHS);
  const window: StayWindow = { earliest, latest, length: { kind: 'fixed', nights } };
  // A stay may not end past the date rules' reach (a quote would refuse it): the window must hold one that does not.
  const firstStart = earliest < today ? today : earliest;
  if (firstStart <= latest && windowStarts(window, today).length === 0) {
    throw badRequest(
      'invalid_date',
      `the stay from ${firstStart} for ${nights} nights would end ${addDays(firstStart, nights)}, more than ${MAX_YEARS_AHEAD} years ahead; choose fewer nights or an earlier window.`,
    );
  }
  return window;
}

/**
 * The window's move-in dates a stay can still take, in order: from today (none starts in the past) to
 * the latest, and for a fixed stay none whose move-out is more than MAX_YEARS_AHEAD years ahead (the
 * date rules of every tool: the quote of such a stay is refused).
 */
export function windowStarts(w: StayWindow, today: IsoDate): IsoDate[] {
  const horizon = addYears(today, MAX_YEARS_AHEAD);
  const starts: IsoDate[] = [];
  for (let d = w.earliest < today ? today : w.earliest; d <= w.latest; d = addDays(d, 1)) {
    if (w.length.kind === 'fixed' && addDays(d, w.length.nights) > horizon) break;
    starts.push(d);
  }
  return starts;
}

/** The stay of the window moving in on `start`. */
export function windowStay(w: StayWindow, start: IsoDate): StayRequest {
  return stayOfLength(start, w.length);
}

/** The window's stay moving in on `start`, as a search's dates (what the stay clauses read). */
export function stayDatesAt(w: StayWindow, start: IsoDate): Extract<StayDates, { kind: 'fixed' | 'flex' }> {
  return w.length.kind === 'fixed'
    ? { kind: 'fixed', start_date: start, end_date: addDays(start, w.length.nights), nights: w.length.nights }
    : { kind: 'flex', start_date: start, committed_nights: w.length.committed_nights };
}

/** The window's stay from its earliest move-in, as the search's dates: what the price unit and the site's links read. */
export function firstStayDates(w: StayWindow): StayDates {
  return stayDatesAt(w, w.earliest);
}
