/** A 3,000-home demo inventory materialized once per test file, plus lookups over it. */
import type { BookingRange, HomeRecord, MarketRecord, PropertyRecord } from '../../../services/kernel/inventory/records';
import { generateInventory } from '../../../stack/demo/generate';

export const TODAY = '2025-06-15';
export const SEED = 42;

export interface Materialized {
  markets: MarketRecord[];
  properties: PropertyRecord[];
  homes: HomeRecord[];
  propertyById: Map<string, PropertyRecord>;
}

export function materialize(homes = 3000, seed = SEED, today = TODAY): Materialized {
  const inv = generateInventory({ seed, homes, today });
  const properties = inv.properties;
  return {
    markets: inv.markets,
    properties,
    homes: [...inv.homes],
    propertyById: new Map(properties.map((p) => [p._id, p])),
  };
}

/** A maximal run of contiguous open segments, as the stay engine's bookable windows start from. */
export interface OpenRun {
  start: string;
  end: string | null;
  segments: BookingRange[];
}

export function openRuns(calendar: BookingRange[]): OpenRun[] {
  const runs: OpenRun[] = [];
  let current: OpenRun | null = null;
  for (const seg of calendar) {
    if (!seg.open_for_occupancy) {
      current = null;
      continue;
    }
    if (current === null) {
      current = { start: seg.start_date, end: seg.end_date, segments: [seg] };
      runs.push(current);
    } else {
      current.end = seg.end_date;
      current.segments.push(seg);
    }
  }
  return runs;
}

export function nightsBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Great-circle miles. */
export function milesBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad,
    dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.sqrt(a));
}

export function share<T>(items: T[], predicate: (item: T) => boolean): number {
  return items.filter(predicate).length / items.length;
}

/** Every violation of the calendar invariants (sorted, contiguous, half-open, spanning the horizon). */
export function calendarProblems(homes: HomeRecord[], span: { start: string; end: string }): string[] {
  const problems: string[] = [];
  for (const h of homes) {
    const cal = h.calendar;
    const fail = (i: number, what: string) => problems.push(`${h.slug}[${i}]: ${what}`);
    if (cal.length === 0 || cal[0].start_date !== span.start) fail(0, 'does not start at the span start');
    cal.forEach((seg, i) => {
      const last = i === cal.length - 1;
      if (!last && (seg.end_date === null || cal[i + 1].start_date !== seg.end_date)) fail(i, 'not contiguous');
      if (seg.end_date !== null && seg.start_date >= seg.end_date) fail(i, 'empty or reversed');
      if (!seg.open_for_occupancy && (seg.move_in_allowed || seg.move_out_allowed || seg.unbookable_reason === null)) fail(i, 'closed but flagged open');
      if (seg.open_for_occupancy && seg.unbookable_reason !== null) fail(i, 'open with a reason');
      if (last && seg.end_date === null && !(seg.open_for_occupancy && seg.move_in_allowed && seg.start_date <= span.end)) fail(i, 'bad open end');
      if (last && seg.end_date !== null && seg.end_date !== span.end) fail(i, `ends ${seg.end_date}`);
    });
  }
  return problems;
}
