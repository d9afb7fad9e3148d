/**
 * "Can a fixed stay of `nights` nights move in on `date`?", as one flat field of the homes index
 * (docs/decisions.md, "A flat index"). A move-in date carries the minimum stay of its own date
 * ("only the minimum of the move-in date binds a stay"), so the question is a point (date, nights)
 * inside a rectangle (a span of move-in dates) × [minimum, ∞). Elasticsearch's range fields hold
 * one-dimensional ranges, so the nights axis is cut into the dyadic intervals of a segment tree:
 *
 * - a span with minimum m is indexed once per interval of the canonical cover of [m, NIGHTS_CAP),
 *   as the key range [interval·DAY_SPACE + first day, interval·DAY_SPACE + last day];
 * - a search of n nights asks for the keys of the intervals that contain n, one per level.
 *
 * n lies in exactly one interval of the cover of [m, NIGHTS_CAP) when m ≤ n, and in none when
 * m > n, so a home matches if and only if one of its spans holds the date with a minimum ≤ n.
 * Exact for every minimum and every stay under NIGHTS_CAP; a span costs at most 2·LEVELS ranges
 * (a minimum of 30 costs 8). Both the indexer and the search take the keys from here.
 */
import { toDayNumber } from '../engine/dates';
import type { IsoDate } from '../inventory/records';

/** Levels of the tree: stays and minimums up to NIGHTS_CAP − 1 nights (11 years) are told apart exactly. */
const LEVELS = 12;
/** Nights at or past the cap count as NIGHTS_CAP − 1: no search asks for a stay that long. */
export const NIGHTS_CAP = 2 ** LEVELS;
/** Day numbers (days since 1970-01-01) below this; 2^17 days reach the year 2328. */
const DAY_SPACE = 2 ** 17;
/** The end of the key space's days: where an open-ended span of move-in dates is cut. */
export const LAST_KEY_DAY = DAY_SPACE;

/** A range of keys as a `long_range` field takes it. */
export interface KeyRange {
  gte: number;
  lte: number;
}

const clampNights = (n: number): number => Math.min(Math.max(Math.floor(n), 0), NIGHTS_CAP - 1);

/** The tree nodes whose intervals exactly cover nights [minimum, NIGHTS_CAP). */
export function coverOf(minimum: number): number[] {
  const nodes: number[] = [];
  let l = NIGHTS_CAP + clampNights(minimum);
  let r = 2 * NIGHTS_CAP;
  while (l < r) {
    if (l & 1) nodes.push(l++);
    if (r & 1) nodes.push(--r);
    l >>= 1;
    r >>= 1;
  }
  return nodes;
}

/** The tree nodes whose intervals contain `nights`: one per level, leaf to root. */
export function nodesHolding(nights: number): number[] {
  const nodes: number[] = [];
  for (let node = NIGHTS_CAP + clampNights(nights); node >= 1; node >>= 1) nodes.push(node);
  return nodes;
}

/** The key ranges of move-in days `[firstDay, endDay)` with `minimum` nights. */
export function moveInKeyRanges(firstDay: number, endDay: number, minimum: number): KeyRange[] {
  if (endDay <= firstDay) return [];
  return coverOf(minimum).map((node) => ({ gte: node * DAY_SPACE + firstDay, lte: node * DAY_SPACE + endDay - 1 }));
}

/** The keys a stay of `nights` moving in on `date` looks for: a home holds one of them iff the move-in fits. */
export function moveInKeys(date: IsoDate, nights: number): number[] {
  const day = toDayNumber(date);
  return nodesHolding(nights).map((node) => node * DAY_SPACE + day);
}
