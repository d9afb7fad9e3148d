/**
 * Minimum stays and stay cutoffs of a demo home: the apartment floor, stricter minimums over
 * holiday and summer stretches (docs/contract.md, get_apartment_tool rule 1: only the move-in date's minimum binds a stay), the
 * `available_from` cutoff and the `must_vacate_by` lease end.
 */
import type { IsoDate, MinimumStayRule } from '../../services/kernel/inventory/records';
import type { CalendarSpan } from './calendar';
import { addDays } from '../../services/kernel/engine/dates';
import { nthWeekdayOfMonth } from './dates';
import type { Rng } from './prng';

/**
 * A rare long-term-only floor, above the shortest Flex tier, so that "tiers below the
 * apartment's minimum nightly stay are dropped" (docs/contract.md, get_flex_options_tool rule 2) has data to act on.
 */
export const LONG_TERM_FLOOR = 210;

/** Floors and their weights: most homes take 3+ nights, many are monthly-only, 1% long-term only. */
export const MINIMUM_STAY_FLOORS: ReadonlyArray<readonly [number, number]> = [
  [1, 10],
  [2, 15],
  [3, 25],
  [7, 20],
  [30, 29],
  [LONG_TERM_FLOOR, 1],
];

export function minimumStayFloor(rng: Rng): number {
  return rng.weighted(MINIMUM_STAY_FLOORS);
}

interface Stretch {
  start_date: IsoDate;
  end_date: IsoDate;
  minimums: number[];
}

/** Holiday and summer stretches of each year the span touches, with the minimums they may carry. */
function stretches(span: CalendarSpan): Stretch[] {
  const out: Stretch[] = [];
  for (let y = Number(span.start.slice(0, 4)); y <= Number(span.end.slice(0, 4)); y++) {
    const thanksgiving = nthWeekdayOfMonth(y, 11, 4, 4);
    out.push(
      { start_date: `${y}-06-01`, end_date: `${y}-09-01`, minimums: [30] },
      { start_date: `${y}-07-01`, end_date: `${y}-07-07`, minimums: [7, 14] },
      { start_date: addDays(thanksgiving, -2), end_date: addDays(thanksgiving, 4), minimums: [7, 14] },
      { start_date: `${y}-12-18`, end_date: `${y + 1}-01-04`, minimums: [14, 30] },
    );
  }
  return out.filter((s) => s.start_date >= span.start && s.end_date <= span.end);
}

/** None for about 40% of homes; otherwise 1-3 non-overlapping stretches stricter than the floor. */
export function minimumStayRules(rng: Rng, span: CalendarSpan, floor: number): MinimumStayRule[] {
  if (rng.chance(0.4)) return [];
  const candidates = stretches(span).filter((s) => s.minimums.some((m) => m > floor));
  const chosen = rng.sample(candidates, rng.int(1, 3)).sort((a, b) => (a.start_date < b.start_date ? -1 : 1));
  const rules: MinimumStayRule[] = [];
  for (const s of chosen) {
    const prev = rules[rules.length - 1];
    if (prev && prev.end_date > s.start_date) continue; // July 4th inside summer: keep the first
    rules.push({ start_date: s.start_date, end_date: s.end_date, minimum_nightly_stay: rng.pick(s.minimums.filter((m) => m > floor)) });
  }
  return rules;
}

/** About 10% of homes open only 1-60 days from today. */
export function availableFrom(rng: Rng, today: IsoDate): IsoDate | null {
  return rng.chance(0.1) ? addDays(today, rng.int(1, 60)) : null;
}

/** About 10% of homes have a lease end 9-16 months ahead. */
export function mustVacateBy(rng: Rng, today: IsoDate): IsoDate | null {
  return rng.chance(0.1) ? addDays(today, rng.int(274, 487)) : null;
}
