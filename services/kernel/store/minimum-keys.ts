/**
 * "Does the minimum stay of move-in date `date` allow `nights` nights?", as one flat field of the
 * homes index (docs/search-index.md, "A flat index"). Only the minimum of the move-in date binds a stay,
 * and it is constant over a few spans of dates (the home's floor, its minimum-stay rules), so the
 * question is a point (date, nights) inside a rectangle (a span of dates) × [minimum, ∞).
 * Elasticsearch's range fields hold one-dimensional ranges, so the nights axis is cut into the
 * dyadic intervals of a segment tree:
 *
 * - a span with minimum m is indexed once per interval of the canonical cover of [m, NIGHTS_CAP),
 *   as the key range [interval·DAY_SPACE + first day, interval·DAY_SPACE + last day];
 * - a search of n nights asks for the keys of the intervals that contain n, at most one per level (below).
 *
 * n lies in exactly one interval of the cover of [m, NIGHTS_CAP) when m ≤ n, and in none when
 * m > n, so a home matches if and only if the date lies in a span whose minimum is ≤ n. Exact for
 * every minimum and every stay under NIGHTS_CAP; a span costs at most 2·LEVELS ranges (a minimum
 * of 30 costs 8). Whether the date allows a move-in at all is another field (`move_ins`). Both the
 * indexer and the search take the keys from here.
 *
 * Minimums and stays count at least one night, so no cover holds an interval that starts at night 0
 * (the tree's left edge: the nodes numbered by a power of two). A search leaves those keys out: a
 * stay of n nights asks for one key per binary digit of n (2-7 keys for 2-120 nights) instead of one per
 * level (13), and each key is a search of the field's points (docs/search-index.md, "A flat index").
 */
import { toDayNumber } from '../engine/dates';
import type { IsoDate } from '../inventory/records';

/** Levels of the tree: stays and minimums up to NIGHTS_CAP − 1 nights (11 years) are told apart exactly. */
const LEVELS = 12;
/** Nights at or past the cap count as NIGHTS_CAP − 1: no search asks for a stay that long. */
export const NIGHTS_CAP = 2 ** LEVELS;
/** Day numbers (days since 1970-01-01) below this; 2^17 days reach the year 2328. */
const DAY_SPACE = 2 ** 17;
/** The end of the key space's days: where an open-ended span of dates is cut. */
export const LAST_KEY_DAY = DAY_SPACE;

/** A range of keys as a `long_range` field takes it. */
export interface KeyRange {
  gte: number;
  lte: number;
}

/** Nights on the tree's axis: at least one (no stay is shorter, no minimum asks less), under the cap. */
export const clampNights = (n: number): number => Math.min(Math.max(Math.floor(n), 1), NIGHTS_CAP - 1);

/** A node whose interval starts at night 0: numbered by a power of two. */
const onLeftEdge = (node: number): boolean => (node & (node - 1)) === 0;

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

/** The tree nodes whose intervals contain `nights` and that a cover can hold (not on the left edge): leaf to root. */
export function nodesHolding(nights: number): number[] {
  const nodes: number[] = [];
  for (let node = NIGHTS_CAP + clampNights(nights); !onLeftEdge(node); node >>= 1) nodes.push(node);
  return nodes;
}

/** The key ranges of move-in days `[firstDay, endDay)` whose minimum stay is `minimum` nights. */
export function minimumKeyRanges(firstDay: number, endDay: number, minimum: number): KeyRange[] {
  if (endDay <= firstDay) return [];
  return coverOf(minimum).map((node) => ({ gte: node * DAY_SPACE + firstDay, lte: node * DAY_SPACE + endDay - 1 }));
}

/** The keys a stay of `nights` moving in on `date` looks for: a home holds one of them iff the date's minimum allows the stay. */
export function minimumKeys(date: IsoDate, nights: number): number[] {
  const day = toDayNumber(date);
  return nodesHolding(nights).map((node) => node * DAY_SPACE + day);
}
