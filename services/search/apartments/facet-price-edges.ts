/**
 * Where the price facet's buckets begin and end (docs/contract.md, "Facets"; docs/decisions.md,
 * "Facet counts"). Pure: from the spread of the stay's indexed price (./facet-aggs.ts), buckets of one
 * round width (1, 2, 2.5 or 5 times a power of ten), at most MAX_PRICE_BUCKETS of them, in the unit the
 * search's min_price/max_price use. For a fixed stay, whose exact price the index does not hold, each
 * inner edge moves (by less than half the width) to where the fewest homes' price bounds straddle
 * it: those homes are priced exactly to be counted (./facet-price-counts.ts), the others are counted by
 * their bounds. The counts are exact wherever the edges fall; the edges only decide the cost.
 */
import { displayLimits, displayUnit, type PriceLimits, type PriceUnit } from '../shared/search-params';
import type { StayDates } from '../../stays/stay-dates';
import { NIGHTS_PER_MONTH } from '../../kernel/engine/labels';
import { MAX_PRICE_BUCKETS } from '../../kernel/limits/facets';

/** The steps, in the shown unit, of a fixed stay's histogram of price bounds: edges fall on them. */
export function spreadInterval(stay: StayDates): number {
  return displayUnit(stay) === 'per_night' ? 5 : 50;
}

/**
 * What every edge, in the shown unit, is a multiple of. Limits per night against a monthly price
 * are multiplied by 30 (search-params.ts, displayLimits), so their edges fall on multiples of 30.
 */
export function edgeQuantum(stay: StayDates, unit: PriceUnit): number {
  const step = spreadInterval(stay);
  return unit === 'per_night' && displayUnit(stay) === 'per_month' ? lcm(step, NIGHTS_PER_MONTH) : step;
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a * b) / gcd(a, b);
}

/** The spread of the stay's price over the homes counted: least and greatest (a fixed stay's bounds), and a fixed stay's straddlers. */
export interface PriceSpread {
  min: number;
  max: number;
  /** Homes whose price bounds straddle an edge (lower bound below it, upper bound at or above it); absent where prices are exact. */
  straddlers?: (edge: number) => number;
}

/** A histogram's buckets as Elasticsearch returns them. */
export interface HistogramBucket {
  key: number;
  doc_count: number;
}

/** A fixed stay's spread, from the histograms of its lower and upper bounds (keys are multiples of spreadInterval). */
export function bandSpread(lo: readonly HistogramBucket[], hi: readonly HistogramBucket[], interval: number): PriceSpread | null {
  if (lo.length === 0 || hi.length === 0) return null;
  const below = (buckets: readonly HistogramBucket[], edge: number): number => buckets.reduce((n, b) => (b.key < edge ? n + b.doc_count : n), 0);
  return {
    min: lo[0].key,
    max: hi[hi.length - 1].key + interval - 1,
    straddlers: (edge) => below(lo, edge) - below(hi, edge),
  };
}

/** The round widths, smallest first: the quantum times 1, 2, 2.5 and 5 times each power of ten (multiples of the quantum). */
function roundWidths(quantum: number): number[] {
  const widths: number[] = [];
  for (let power = 1; power <= 1e9; power *= 10) {
    for (const m of [1, 2, 2.5, 5]) {
      const w = quantum * m * power;
      if (w % quantum === 0) widths.push(w);
    }
  }
  return widths;
}

/**
 * The edges, in the shown unit: e[0] ≤ min < … ≤ max < e[n]; bucket i holds [e[i], e[i+1]). A fixed
 * stay's inner edges then move to where fewer bounds straddle them, and while more than `maxPriced`
 * homes straddle them in all, the most straddled edge goes (two buckets become one).
 */
export function drawEdges(spread: PriceSpread, quantum: number, maxPriced = Infinity): number[] {
  const span = (from: number, width: number) => Math.floor((spread.max - from) / width) + 1;
  const width = roundWidths(quantum).find((w) => span(Math.floor(spread.min / w) * w, w) <= MAX_PRICE_BUCKETS) ?? quantum * 1e9;
  const first = Math.floor(spread.min / width) * width;
  const edges: number[] = [];
  for (let i = 0; i <= span(first, width); i++) edges.push(first + i * width);
  const { straddlers } = spread;
  if (!straddlers) return edges;
  // Each inner edge to the multiple of the quantum within half a width that the fewest bounds straddle.
  const reach = Math.floor((width / 2 - 1) / quantum) * quantum;
  const moved = edges.map((edge, i) => {
    if (i === 0 || i === edges.length - 1 || reach === 0) return edge;
    let best = edge;
    for (let e = edge - reach; e <= edge + reach; e += quantum) {
      const better = straddlers(e) - straddlers(best);
      if (better < 0 || (better === 0 && Math.abs(e - edge) < Math.abs(best - edge))) best = e;
    }
    return best;
  });
  const inner = moved.slice(1, -1);
  // An upper bound of the homes to price (one straddling two edges counts twice).
  while (inner.length > 0 && inner.reduce((n, e) => n + straddlers(e), 0) > maxPriced) {
    const worst = inner.reduce((w, e, i) => (straddlers(e) > straddlers(inner[w]) ? i : w), 0);
    inner.splice(worst, 1);
  }
  return [moved[0], ...inner, moved[moved.length - 1]];
}

/** One bucket of the facet: its bounds in the search's unit, and the limits they are on the shown price. */
export interface PriceBucket {
  min: number;
  max: number;
  limits: PriceLimits;
}

/**
 * The buckets of the edges, in `unit`. Per month against a nightly price, [30e, 30e' − 1] is exactly
 * [e, e' − 1] a night; per night against a monthly price, [e/30, e'/30 − 1] a night is [e, e' − 1] a
 * month (a nightly limit is on a monthly price's thirtieth, cents dropped: search-params.ts,
 * displayLimits). So every price of the spread is in exactly one bucket, in either unit.
 */
export function priceBuckets(edges: readonly number[], unit: PriceUnit, shown: PriceUnit): PriceBucket[] {
  const toUnit = (e: number): number => (unit === shown ? e : unit === 'per_month' ? e * NIGHTS_PER_MONTH : e / NIGHTS_PER_MONTH);
  return edges.slice(0, -1).map((edge, i) => {
    const min = toUnit(edge);
    const max = toUnit(edges[i + 1]) - 1;
    return { min, max, limits: displayLimits(min, max, unit, shown) };
  });
}
