/**
 * Booking calendars: sorted, contiguous, half-open segments from 30 days before `today` to the
 * 18-month horizon (or open-ended past it). Mostly open, with reserved stays, owner holds,
 * maintenance and turnover days, plus one-day segments that forbid a move-in or a move-out.
 */
import type { BookingRange, IsoDate } from '../../services/kernel/inventory/records';
import { addMonths, addDays, toDayNumber, fromDayNumber, weekday } from '../../services/kernel/engine/dates';
import { nthWeekdayOfMonth } from './dates';
import type { Rng } from './prng';

export const CALENDAR_LEAD_DAYS = 30;
export const CALENDAR_MONTHS = 18;

/** `[start, end)`: the stretch every calendar covers. */
export interface CalendarSpan {
  start: IsoDate;
  end: IsoDate;
}

export function calendarSpan(today: IsoDate): CalendarSpan {
  const start = addDays(today, -CALENDAR_LEAD_DAYS);
  return { start, end: addMonths(start, CALENDAR_MONTHS) };
}

/** A day on which moving in, or checking out after that night, is not allowed. */
interface RestrictedDay {
  day: number;
  moveIn: boolean;
  moveOut: boolean;
}

/** Share of homes held by their owner from before today to the horizon: no known opening date. */
export const OFF_MARKET_SHARE = 0.01;

export interface CalendarPolicy {
  /** The last segment is open with `end_date: null` instead of stopping at the horizon. */
  openEnded: boolean;
  /** Held by the owner from before today to the horizon (docs/contract.md, search_properties_tool rule 1: "units with no known opening date"). */
  offMarket: boolean;
  /** Rough share of nights already taken; drives how long stays and gaps run. */
  occupancy: number;
  /** Sorted by day. */
  restricted: RestrictedDay[];
}

export function calendarPolicy(rng: Rng, span: CalendarSpan): CalendarPolicy {
  const start = toDayNumber(span.start),
    end = toDayNumber(span.end);
  const days = new Map<number, RestrictedDay>();
  const restrict = (day: number, flag: 'moveIn' | 'moveOut') => {
    if (day < start || day >= end) return;
    const entry = days.get(day) ?? { day, moveIn: true, moveOut: true };
    entry[flag] = false;
    days.set(day, entry);
  };
  if (rng.chance(0.2)) {
    // No Sunday move-ins (the front desk is closed).
    for (let d = start + ((7 - weekday(span.start)) % 7); d < end; d += 7) restrict(d, 'moveIn');
  }
  if (rng.chance(0.15)) for (let i = rng.int(2, 6); i > 0; i--) restrict(rng.int(start, end - 1), 'moveIn');
  if (rng.chance(0.25)) {
    // No check-out on holidays: the night before each holiday may not be a stay's last.
    for (const holiday of holidays(span)) restrict(toDayNumber(holiday) - 1, 'moveOut');
    for (let i = rng.int(0, 4); i > 0; i--) restrict(rng.int(start, end - 1), 'moveOut');
  }
  const offMarket = rng.chance(OFF_MARKET_SHARE);
  return {
    openEnded: !offMarket && rng.chance(0.4),
    offMarket,
    occupancy: rng.float(0.2, 0.8),
    restricted: [...days.values()].sort((a, b) => a.day - b.day),
  };
}

/** New Year's Day, Independence Day, Thanksgiving and Christmas within the span. */
export function holidays(span: CalendarSpan): IsoDate[] {
  const out: IsoDate[] = [];
  for (let y = Number(span.start.slice(0, 4)); y <= Number(span.end.slice(0, 4)); y++) {
    out.push(`${y}-01-01`, `${y}-07-04`, nthWeekdayOfMonth(y, 11, 4, 4), `${y}-12-25`);
  }
  return out.filter((d) => d >= span.start && d < span.end).sort();
}

interface Block {
  start: number;
  end: number;
  /** null = open for occupancy. */
  reason: string | null;
}

export function buildCalendar(rng: Rng, span: CalendarSpan, today: IsoDate, policy: CalendarPolicy): BookingRange[] {
  const start = toDayNumber(span.start),
    end = toDayNumber(span.end),
    now = toDayNumber(today);
  const blocks = policy.offMarket ? offMarketBlocks(rng, start, end, now) : occupancyBlocks(rng, start, end, now, policy.occupancy);
  const last = blocks[blocks.length - 1];
  const ranges: BookingRange[] = [];
  let r = 0; // next restricted day to place
  const restricted = policy.restricted;
  for (const block of blocks) {
    const openEnd = block === last && block.reason === null && policy.openEnded;
    if (block.reason !== null) {
      ranges.push(range(block.start, block.end, false, false, false, block.reason));
      continue;
    }
    while (r < restricted.length && restricted[r].day < block.start) r++;
    let cursor = block.start;
    for (; r < restricted.length && restricted[r].day < block.end; r++) {
      const { day, moveIn, moveOut } = restricted[r];
      if (day > cursor) ranges.push(range(cursor, day, true, true, true, null));
      ranges.push(range(day, day + 1, true, moveIn, moveOut, null));
      cursor = day + 1;
    }
    if (cursor < block.end) ranges.push(range(cursor, openEnd ? null : block.end, true, true, true, null));
    else if (openEnd) ranges.push(range(cursor, null, true, true, true, null));
  }
  if (policy.openEnded && last.reason !== null) ranges.push(range(last.end, null, true, true, true, null));
  return ranges;
}

/** Open in the past, then held by the owner from a recent day to the horizon. */
function offMarketBlocks(rng: Rng, start: number, end: number, today: number): Block[] {
  const holdFrom = today - rng.int(1, 20);
  return [
    { start, end: holdFrom, reason: null },
    { start: holdFrom, end, reason: 'owner_hold' },
  ];
}

/** Alternating open gaps and closed stretches from `start` until `end`, the last one clipped. */
function occupancyBlocks(rng: Rng, start: number, end: number, today: number, occupancy: number): Block[] {
  const blocks: Block[] = [];
  let cursor = start;
  let open = true;
  if (rng.chance(occupancy)) {
    // A stay that began before the calendar's first day.
    const stayEnd = Math.max(start + 3, today + rng.int(-10, 60));
    blocks.push({ start, end: stayEnd, reason: 'reserved' });
    cursor = stayEnd;
  }
  while (cursor < end) {
    if (open) {
      const nights = rng.weighted([
        [rng.int(1, 6), 0.15],
        [rng.int(7, 45), 0.45],
        [rng.int(46, 200), 0.5 * (1.2 - occupancy)],
      ]);
      blocks.push({ start: cursor, end: cursor + nights, reason: null });
      cursor += nights;
    } else {
      const reason = rng.weighted([
        ['reserved', 86],
        ['owner_hold', 7],
        ['maintenance', 7],
      ] as const);
      const nights =
        reason === 'reserved'
          ? rng.weighted([
              [rng.int(3, 14), 4],
              [rng.int(15, 45), 3.5],
              [rng.int(46, 90), 2.5 * occupancy + 1],
            ])
          : reason === 'owner_hold'
            ? rng.int(5, 30)
            : rng.int(1, 7);
      blocks.push({ start: cursor, end: cursor + nights, reason });
      cursor += nights;
      if (reason === 'reserved' && rng.chance(0.15)) {
        blocks.push({ start: cursor, end: cursor + 1, reason: 'turnover' });
        cursor += 1;
      }
    }
    open = !open;
  }
  while (blocks.length > 0 && blocks[blocks.length - 1].start >= end) blocks.pop();
  blocks[blocks.length - 1].end = end;
  return blocks;
}

function range(start: number, end: number | null, open: boolean, moveIn: boolean, moveOut: boolean, reason: string | null): BookingRange {
  return {
    start_date: fromDayNumber(start),
    end_date: end === null ? null : fromDayNumber(end),
    open_for_occupancy: open,
    move_in_allowed: moveIn,
    move_out_allowed: moveOut,
    unbookable_reason: reason,
  };
}

/** The first date from `today` on which a new stay may start, ignoring minimum stays. */
export function firstMoveInDate(calendar: BookingRange[], today: IsoDate): IsoDate | null {
  for (const seg of calendar) {
    if (!seg.open_for_occupancy || !seg.move_in_allowed) continue;
    if (seg.end_date !== null && seg.end_date <= today) continue;
    return seg.start_date > today ? seg.start_date : today;
  }
  return null;
}
