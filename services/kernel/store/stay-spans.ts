/**
 * "Can a stay of n nights start on some day between s and s'?", as one nested query of the homes
 * index (docs/search-index.md, "A window of move-in dates"). A fixed stay from day x of n nights is
 * bookable when x is a move-in date of a bookable window whose minimum is at most n, and x + n is a
 * move-out date of the same window (kernel/engine/stay-starts.ts, the rules `checkStay` applies). So
 * the bookable (move-in, move-out) pairs are a union of rectangles, one per move-in run (one minimum,
 * one window) and move-out run of that window, and a span of stays of n nights from s to s' is a
 * diagonal segment across them. Each rectangle is a nested document of three integer ranges:
 *
 * - `starts` [p, q]: its move-in days;
 * - `ends` [u, v]: its move-out days;
 * - `nights` [max(minimum, u − q, 1), v − p]: the lengths some pair of it spans.
 *
 * The segment meets the rectangle if and only if `starts` meets [s, s'], `ends` meets [s + n, s' + n]
 * and `nights` holds n (the nine inequalities of max(s, p, u − n) ≤ min(s', q, v − n), two by two, and
 * the minimum), and the stays of the segment inside the rectangle start on
 * [max(s, p, u − n), min(s', q, v − n)] (`startsIn`). Exact, one query per window instead of one set
 * of clauses per start; property-tested against `checkStay` (test/unit/indexer/stay-spans.test.ts).
 *
 * The same spans ride in each hit as a binary doc value (`span_card`, `encodeSpans`), from which the
 * service reads the starts of a hit: Elasticsearch's inner hits ran the nested query again per hit
 * (about 3 ms each).
 */
import type { StayStarts } from '../engine/stay-starts';

/** A closed range of day numbers or nights as an `integer_range` field takes it; no `lte` when open-ended. */
export interface ClosedRange {
  gte: number;
  lte?: number;
}

/** One rectangle of bookable (move-in, move-out) pairs. */
export interface StaySpan {
  starts: ClosedRange;
  ends: ClosedRange;
  nights: ClosedRange;
}

const closed = (gte: number, lte: number): ClosedRange => (Number.isFinite(lte) ? { gte, lte } : { gte });

/** The rectangles of a home's bookable (move-in, move-out) pairs, from its stay starts. */
export function staySpans(starts: StayStarts): StaySpan[] {
  const spans: StaySpan[] = [];
  for (const group of starts.groups) {
    const window = starts.windows.find((w) => w.end === group.window_end);
    if (window === undefined) continue;
    // A stay of this window moves out after its first night and on its end at the latest.
    const moveOuts = starts.move_outs
      .map((r) => ({ start: Math.max(r.start, window.start + 1), end: Math.min(r.end, window.end + 1) }))
      .filter((r) => r.start < r.end);
    for (const moveIn of group.move_in) {
      const [p, q] = [moveIn.start, moveIn.end - 1];
      for (const moveOut of moveOuts) {
        const [u, v] = [moveOut.start, moveOut.end - 1];
        const least = Math.max(group.minimum_nightly_stay, u - q, 1);
        const most = v - p;
        if (least > most) continue;
        spans.push({ starts: closed(p, q), ends: closed(u, v), nights: closed(least, most) });
      }
    }
  }
  return spans;
}

/** A span as its doc value row holds it: [p, q, u, v, fewest, most], null where open-ended. */
type SpanRow = [number, number | null, number, number | null, number, number | null];

/** The starts of [first, last] from which a stay of `nights` nights lies in the span row (as day numbers; null when none). */
function rowStartsIn([p, q, u, v, lo, hi]: SpanRow, first: number, last: number, nights: number): { from: number; to: number } | null {
  if (nights < lo || (hi !== null && nights > hi)) return null;
  const from = Math.max(first, p, u - nights);
  const to = Math.min(last, q ?? Infinity, v === null ? Infinity : v - nights);
  return from <= to ? { from, to } : null;
}

const rowOf = (s: StaySpan): SpanRow => [s.starts.gte, s.starts.lte ?? null, s.ends.gte, s.ends.lte ?? null, s.nights.gte, s.nights.lte ?? null];

/** The starts of [first, last] from which a stay of `nights` nights lies in the span (as day numbers; null when none). */
export function startsIn(span: StaySpan, first: number, last: number, nights: number): { from: number; to: number } | null {
  return rowStartsIn(rowOf(span), first, last, nights);
}

const bound = (n: number | null): number => (n === null ? Infinity : n);

/** The spans as a `binary` doc value takes them: base64 of [p, q, u, v, fewest, most] each, null where open-ended. */
export function encodeSpans(spans: readonly StaySpan[]): string {
  return Buffer.from(JSON.stringify(spans.map(rowOf))).toString('base64');
}

/** The spans of a `span_card` value (encodeSpans). */
export function decodeSpans(value: string): StaySpan[] {
  const rows = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as SpanRow[];
  return rows.map(([p, q, u, v, lo, hi]) => ({ starts: closed(p, bound(q)), ends: closed(u, bound(v)), nights: closed(lo, bound(hi)) }));
}

/**
 * The days of `runs` (closed runs of day numbers, ascending and apart, as a window's starts give them) from which a stay of `nights` nights lies in one of
 * the spans of a `span_card` value: ascending, each once. What startsIn gives over decodeSpans(value),
 * without building the spans: the window search asks it of every home it prices.
 */
export function spanCardStarts(value: string, runs: ReadonlyArray<{ first: number; last: number }>, nights: number): number[] {
  if (runs.length === 0) return [];
  const rows = JSON.parse(Buffer.from(value, 'base64').toString('latin1')) as SpanRow[];
  const origin = runs[0].first;
  const met = new Uint8Array(runs[runs.length - 1].last - origin + 1);
  for (const row of rows) {
    for (const run of runs) {
      const starts = rowStartsIn(row, run.first, run.last, nights);
      if (starts) for (let d = starts.from; d <= starts.to; d++) met[d - origin] = 1;
    }
  }
  const days: number[] = [];
  for (let i = 0; i < met.length; i++) if (met[i] === 1) days.push(origin + i);
  return days;
}
