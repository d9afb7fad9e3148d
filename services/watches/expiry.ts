/**
 * When a watch ends itself (docs/contract.md, watch_search_tool): on `expires_on`, by default the
 * search's last move-in date (a window's latest start, else its start date) or 90 days ahead for an
 * undated search; never more than 365 days ahead, and never after the last move-in date (its dates
 * would be past).
 */
import { addDays } from '../kernel/engine/dates';
import { badRequest } from '../kernel/errors';
import type { IsoDate } from '../kernel/inventory/records';

export const UNDATED_WATCH_DAYS = 90;
export const MAX_WATCH_DAYS = 365;

export function watchExpiry(given: IsoDate | undefined, lastMoveIn: IsoDate | null, today: IsoDate): IsoDate {
  const latest = addDays(today, MAX_WATCH_DAYS);
  if (given !== undefined) {
    if (given < today) throw badRequest('invalid_parameters', `expires_on ${given} is in the past; no watch was saved.`);
    if (given > latest) throw badRequest('invalid_parameters', `expires_on may be at most ${MAX_WATCH_DAYS} days ahead (${latest}); no watch was saved.`);
  }
  const fallback = lastMoveIn ?? addDays(today, UNDATED_WATCH_DAYS);
  const chosen = given ?? fallback;
  const capped = lastMoveIn !== null && chosen > lastMoveIn ? lastMoveIn : chosen;
  return capped > latest ? latest : capped;
}
