/**
 * "Can a stay of n nights start on some day between s and s'?", as one nested query of the homes
 * index (docs/search-index.md, "A window of move-in dates"). A fixed stay from day x of n nights is
 * bookable when x is a move-in date of a bookable window whose minimum is at most n, and x + n is a
 * move-out date of the same window (kernel/engine/stay-starts.ts, the rules `checkStay` applies). So
 * the bookable (move-in, move-out) pairs of one minimum of one window and one run [u, v] of its
 * move-out days are A × [u, v] above the minimum's diagonal, where A, the move-in days, is a few runs:
 * their hull [P, Q] less the days between them (its gaps). Each such block is a nested document:
 *
 * - `starts` [P, Q], `ends` [u, v], `nights` [max(minimum, u − Q, 1), v − P]: the hull's rectangle;
 * - the gaps [g1, g2], each written four ways (below), when A is more than one run.
 *
 * The stays of n nights from s to s' are a diagonal segment; the moves-in it could use in the hull are
 * J = [max(s, P, u − n), min(s', Q, v − n)]. J is not empty if and only if `starts` meets [s, s'],
 * `ends` meets [s + n, s' + n] and `nights` holds n (the nine inequalities, two by two, and the
 * minimum). And J holds a move-in day unless it lies inside one gap (a gap is bounded by runs, so J
 * cannot cover two without a run between): g1 ≤ max(s, u − n) and g2 ≥ min(s', v − n), four cases,
 * each a `contains` query of one `integer_range` field whose values are points made for it:
 *
 * - `gaps` [g1, g2] contains [s, s'];
 * - `gaps_end` [g1, SHIFT − (v − g2)] contains [s, SHIFT − n] (v − g2 ≤ n; a closed [u, v] only);
 * - `gaps_out` [g1 − u, g2] contains [−n, s'] (g1 ≤ u − n; gaps before u only);
 * - `gaps_out_end` [g1 − u, SHIFT − (v − g2)] contains [−n, SHIFT − n].
 *
 * A block matches when its three ranges do and none of its gaps does (`must_not`). Exact, one query
 * per window instead of one set of clauses per start; property-tested against `checkStay`
 * (test/unit/indexer/stay-spans.test.ts). A rectangle per run of move-in days (one block per run)
 * was exact too, with twice the nested documents: a weekday rule cuts a window into a run a week.
 *
 * The same blocks ride in each hit as a binary doc value (`span_card`, `encodeSpans`), from which the
 * service reads the starts of a hit: Elasticsearch's inner hits ran the nested query again per hit
 * (about 3 ms each).
 */
import type { StayStarts } from '../engine/stay-starts';

/** A closed range of day numbers or nights as an `integer_range` field takes it; no `lte` when open-ended. */
export interface ClosedRange {
  gte: number;
  lte?: number;
}

/** Beyond any day number or length: [g1, SHIFT − (v − g2)] is a valid range (gte ≤ lte) for every gap. */
export const GAP_SHIFT = 1_000_000;

/** One block of bookable (move-in, move-out) pairs: a minimum's move-in days of a window × a run of its move-out days. */
export interface StaySpan {
  starts: ClosedRange;
  ends: ClosedRange;
  nights: ClosedRange;
  /** The days between the runs of move-in days, each as [g1, g2]: absent when they are one run. */
  gaps?: ClosedRange[];
  /** [g1, SHIFT − (v − g2)]: absent when [u, v] is open-ended. */
  gaps_end?: ClosedRange[];
  /** [g1 − u, g2], for the gaps starting before u. */
  gaps_out?: ClosedRange[];
  /** [g1 − u, SHIFT − (v − g2)], for the gaps starting before u of a closed [u, v]. */
  gaps_out_end?: ClosedRange[];
}

const closed = (gte: number, lte: number): ClosedRange => (Number.isFinite(lte) ? { gte, lte } : { gte });

/** The gap fields of a block from its gaps ([g1, g2] pairs, in order) and its move-out run [u, v]. */
function gapFields(gaps: ReadonlyArray<readonly [number, number]>, u: number, v: number): Pick<StaySpan, 'gaps' | 'gaps_end' | 'gaps_out' | 'gaps_out_end'> {
  if (gaps.length === 0) return {};
  const before = gaps.filter(([g1]) => g1 < u);
  // A gap's end seen from v: SHIFT − (v − g2), read against SHIFT − n.
  const fromEnd = (g2: number): number => GAP_SHIFT - (v - g2);
  const fields: Pick<StaySpan, 'gaps' | 'gaps_end' | 'gaps_out' | 'gaps_out_end'> = { gaps: gaps.map(([g1, g2]) => ({ gte: g1, lte: g2 })) };
  if (Number.isFinite(v)) fields.gaps_end = gaps.map(([g1, g2]) => ({ gte: g1, lte: fromEnd(g2) }));
  if (before.length > 0) {
    fields.gaps_out = before.map(([g1, g2]) => ({ gte: g1 - u, lte: g2 }));
    if (Number.isFinite(v)) fields.gaps_out_end = before.map(([g1, g2]) => ({ gte: g1 - u, lte: fromEnd(g2) }));
  }
  return fields;
}

/** A block from its hull's rectangle and its gaps. */
function block(p: number, q: number, u: number, v: number, least: number, gaps: ReadonlyArray<readonly [number, number]>): StaySpan {
  return { starts: closed(p, q), ends: closed(u, v), nights: closed(least, v - p), ...gapFields(gaps, u, v) };
}

/** The blocks of a home's bookable (move-in, move-out) pairs, from its stay starts. */
export function staySpans(starts: StayStarts): StaySpan[] {
  const spans: StaySpan[] = [];
  for (const group of starts.groups) {
    const window = starts.windows.find((w) => w.end === group.window_end);
    if (window === undefined) continue;
    const minimum = Math.max(group.minimum_nightly_stay, 1);
    // A stay of this window moves out after its first night and on its end at the latest.
    const moveOuts = starts.move_outs
      .map((r) => ({ start: Math.max(r.start, window.start + 1), end: Math.min(r.end, window.end + 1) }))
      .filter((r) => r.start < r.end);
    for (const moveOut of moveOuts) {
      const [u, v] = [moveOut.start, moveOut.end - 1];
      // The move-in days some move-out of [u, v] comes at least the minimum after: x ≤ v − minimum.
      const runs: Array<[number, number]> = [];
      for (const moveIn of group.move_in) {
        const [p, q] = [moveIn.start, Math.min(moveIn.end - 1, v - minimum)];
        if (p <= q) runs.push([p, q]);
      }
      if (runs.length === 0) continue;
      const [p, q] = [runs[0][0], runs[runs.length - 1][1]];
      const gaps = runs.slice(1).map(([next], i) => [runs[i][1] + 1, next - 1] as const);
      spans.push(block(p, q, u, v, Math.max(minimum, u - q), gaps));
    }
  }
  return spans;
}

/** A block as its doc value row holds it: [p, q, u, v, fewest, most, g1, g2, g1, g2, …], null where open-ended. */
type SpanRow = Array<number | null>;

const bound = (n: number | null | undefined): number => (n === null || n === undefined ? Infinity : n);

/** The starts of [first, last] from which a stay of `nights` nights lies in the block's hull rectangle (as day numbers; null when none). */
function rowStartsIn(row: SpanRow, first: number, last: number, nights: number): { from: number; to: number } | null {
  // Read in place: asked for every row of every hit a window search prices, and the gaps are not needed here.
  if (nights < bound(row[4]) || nights > bound(row[5])) return null;
  const from = Math.max(first, bound(row[0]), bound(row[2]) - nights);
  const to = Math.min(last, bound(row[1]), bound(row[3]) - nights);
  return from <= to ? { from, to } : null;
}

/** Calls `take` with each day of [from, to] outside the row's gaps. */
function eachDayOutsideGaps(row: SpanRow, from: number, to: number, take: (day: number) => void): void {
  let day = from;
  for (let i = 6; i + 1 < row.length && day <= to; i += 2) {
    const g1 = bound(row[i]);
    for (; day < g1 && day <= to; day++) take(day);
    day = Math.max(day, bound(row[i + 1]) + 1);
  }
  for (; day <= to; day++) take(day);
}

const rowOf = (s: StaySpan): SpanRow => [
  s.starts.gte,
  s.starts.lte ?? null,
  s.ends.gte,
  s.ends.lte ?? null,
  s.nights.gte,
  s.nights.lte ?? null,
  ...(s.gaps ?? []).flatMap((g) => [g.gte, g.lte ?? null]),
];

/** The starts of [first, last] from which a stay of `nights` nights lies in the block, ascending. */
export function startsIn(span: StaySpan, first: number, last: number, nights: number): number[] {
  const row = rowOf(span);
  const days: number[] = [];
  const hull = rowStartsIn(row, first, last, nights);
  if (hull) eachDayOutsideGaps(row, hull.from, hull.to, (d) => days.push(d));
  return days;
}

/** The blocks as a `binary` doc value takes them: base64 of each one's row (rowOf). */
export function encodeSpans(spans: readonly StaySpan[]): string {
  return Buffer.from(JSON.stringify(spans.map(rowOf))).toString('base64');
}

/** The blocks of a `span_card` value (encodeSpans). */
export function decodeSpans(value: string): StaySpan[] {
  const rows = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as SpanRow[];
  return rows.map((row) => {
    const [p, q, u, v, lo] = row.slice(0, 5).map(bound);
    const gaps: Array<[number, number]> = [];
    for (let i = 6; i + 1 < row.length; i += 2) gaps.push([bound(row[i]), bound(row[i + 1])]);
    return { starts: closed(p, q), ends: closed(u, v), nights: closed(lo, v - p), ...gapFields(gaps, u, v) };
  });
}

/**
 * The days of `runs` (closed runs of day numbers, ascending and apart, as a window's starts give them) from which a stay of `nights` nights lies in one of
 * the blocks of a `span_card` value: ascending, each once. What startsIn gives over decodeSpans(value),
 * without building the blocks: the window search asks it of every home it prices.
 */
export function spanCardStarts(value: string, runs: ReadonlyArray<{ first: number; last: number }>, nights: number): number[] {
  if (runs.length === 0) return [];
  const rows = JSON.parse(Buffer.from(value, 'base64').toString('latin1')) as SpanRow[];
  const origin = runs[0].first;
  const met = new Uint8Array(runs[runs.length - 1].last - origin + 1);
  const mark = (d: number): void => {
    met[d - origin] = 1;
  };
  for (const row of rows) {
    for (const run of runs) {
      const starts = rowStartsIn(row, run.first, run.last, nights);
      if (starts) eachDayOutsideGaps(row, starts.from, starts.to, mark);
    }
  }
  const days: number[] = [];
  for (let i = 0; i < met.length; i++) if (met[i] === 1) days.push(origin + i);
  return days;
}
