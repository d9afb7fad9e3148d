/**
 * Price bands of a home for the search index (docs/design.md, "Exact prices in search").
 * Elasticsearch has no scripts, so it cannot price a stay; it can compare stored numbers. For each
 * band of stay lengths (cut at 30 nights, where the nightly rate gives way to the monthly one, at
 * every length-of-stay tier, and at a few fixed lengths) and each group of move-in dates, this
 * stores a lower and an upper bound of the display price any stay there can have. A search keeps
 * the homes whose bounds can meet its price limits and prices exactly only those that straddle one.
 *
 * The bounds follow the engine's model (docs/pricing.md): per night, rent × (1 − seasonal) ×
 * (1 − length of stay) × (1 − offer) plus the service fee, the cleaning fee spread over the stay,
 * statements rounded to the cent and the display rounded to the dollar.
 */
import { lengthOfStayPercent, specialOfferPercent } from '../services/kernel/engine/pricing-fixed';
import { NIGHTS_PER_MONTH } from '../services/kernel/engine/labels';
import { CELL_NIGHT_CUTS, cellKeyOf, nightCut } from '../services/kernel/store/price-cells';
import { addDays, toDayNumber } from '../services/kernel/engine/dates';
import type { PricingInputs } from '../services/kernel/engine/types';
import type { StayStartGroup } from '../services/kernel/engine/stay-starts';
import type { Run } from '../services/kernel/engine/calendar';
import type { IsoDate } from '../services/kernel/inventory/records';
import { DAYS_IN_LONGEST_YEAR, MAX_PAST_START_DAYS, MAX_YEARS_AHEAD, SEARCH_START_AHEAD_DAYS } from '../services/kernel/limits/stay-window';

/**
 * Longest stay a search can ask for: a move-in at most MAX_PAST_START_DAYS back, a move-out at most
 * MAX_YEARS_AHEAD years ahead, each of at most DAYS_IN_LONGEST_YEAR days.
 */
export const LONGEST_STAY_NIGHTS = MAX_PAST_START_DAYS + MAX_YEARS_AHEAD * DAYS_IN_LONGEST_YEAR;
/** How old an index may be while its bands still cover every move-in date a search can ask for. */
const INDEX_AGE_DAYS = 7;
/** Move-in dates covered: as far ahead as a search starts, and INDEX_AGE_DAYS more for an index a few days old. */
export const START_HORIZON_DAYS = SEARCH_START_AHEAD_DAYS + INDEX_AGE_DAYS;
/** Neighbouring move-in dates share a band while its width grows by at most this share of the price (+ $1). */
const MERGE_TOLERANCE = 0.03;

export interface PriceBand {
  /** Move-in dates the bounds hold for (day-number runs). */
  move_in: Run[];
  /** Stay lengths the bounds hold for, inclusive. */
  nights: { gte: number; lte: number };
  /** Whole dollars in the display unit: per night under 30 nights, per month from 30. */
  lo: number;
  hi: number;
}

/** Stay lengths `[a, b]` inside which the rate and the length-of-stay discount are constant. */
export function nightBands(home: PricingInputs): Array<[number, number]> {
  // The index's cells are cut at CELL_NIGHT_CUTS (30 nights among them): each band lies inside one.
  const cuts = new Set<number>([...CELL_NIGHT_CUTS, ...home.length_of_stay_discounts.map((t) => t.min_nights)]);
  const sorted = [...cuts].filter((c) => c >= 1 && c <= LONGEST_STAY_NIGHTS).sort((a, b) => a - b);
  return sorted.map((a, i): [number, number] => [a, (sorted[i + 1] ?? LONGEST_STAY_NIGHTS + 1) - 1]);
}

/** Seasonal percent of each night from `origin` on (the largest where periods overlap), with prefix sums. */
class SeasonalNights {
  readonly prefix: Float64Array;
  readonly changes: number[];
  constructor(
    home: PricingInputs,
    readonly origin: number,
    length: number,
  ) {
    const pct = new Float64Array(length);
    const changes = new Set<number>();
    for (const p of home.seasonal_discounts) {
      const from = Math.max(toDayNumber(p.start_date) - origin, 0);
      const to = Math.min(toDayNumber(p.end_date) - origin, length);
      for (let i = from; i < to; i++) pct[i] = Math.max(pct[i], p.percent);
      changes.add(from).add(to);
    }
    this.prefix = new Float64Array(length + 1);
    for (let i = 0; i < length; i++) this.prefix[i + 1] = this.prefix[i] + pct[i];
    this.changes = [...changes].sort((a, b) => a - b);
  }

  /** Least and greatest average seasonal percent over stays from day `s` of `a..b` nights (in `least` and `most`). */
  least = 0;
  most = 0;
  extremes(s: number, a: number, b: number): void {
    // Between two changes the average is p + c/N, monotone in N: the extremes sit at the ends or at a change.
    const prefix = this.prefix;
    const base = prefix[s];
    const first = (prefix[s + a] - base) / a;
    const last = (prefix[s + b] - base) / b;
    let lo = first < last ? first : last;
    let hi = first < last ? last : first;
    for (const c of this.changes) {
      if (c <= s + a || c >= s + b) continue;
      const v = (prefix[c] - base) / (c - s);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    this.least = lo;
    this.most = hi;
  }
}

/** Bounds of one band for any move-in day, in whole dollars of the display unit. */
class BandBounds {
  private readonly unit: number;
  private readonly rent: number;
  private readonly fee: number;
  private readonly offer: { start: number; end: number; factor: number } | null;
  constructor(
    private readonly home: PricingInputs,
    private readonly season: SeasonalNights | null,
    private readonly a: number,
    private readonly b: number,
  ) {
    const monthly = a >= NIGHTS_PER_MONTH;
    this.unit = monthly ? NIGHTS_PER_MONTH : 1;
    const ratePerNight = monthly ? home.monthly_rate_cents / NIGHTS_PER_MONTH : home.nightly_rate_cents;
    this.rent = ratePerNight * (1 - lengthOfStayPercent(home, a) / 100);
    this.fee = home.fees.monthly_service_fee_cents / NIGHTS_PER_MONTH;
    const o = home.special_offer;
    this.offer =
      o === null ? null : { start: toDayNumber(o.start_date), end: toDayNumber(o.end_date), factor: 1 - specialOfferPercent(home, o.start_date) / 100 };
  }

  /** The bounds of a stay of the band from day `s`, in `lo` and `hi` (asked once per day of a long run: no array per call). */
  lo = 0;
  hi = 0;
  at(s: number): void {
    const { a, b, season } = this;
    // The offer counts when the move-in date lies in its window (the engine's specialOfferPercent).
    const offer = this.offer !== null && this.offer.start <= s && s < this.offer.end ? this.offer.factor : 1;
    const rent = this.rent * offer;
    let minSeason = 0;
    let maxSeason = 0;
    if (season) {
      season.extremes(s - season.origin, a, b);
      minSeason = season.least;
      maxSeason = season.most;
    }
    const clean = this.home.fees.cleaning_fee_cents;
    const lo = (this.unit / 100) * (rent * (1 - maxSeason / 100) + this.fee + clean / b);
    const hi = (this.unit / 100) * (rent * (1 - minSeason / 100) + this.fee + clean / a);
    // Statement cents and the final dollar rounding move the figure by well under 2 cents; float error is smaller still.
    const margin = 0.02 + 1e-9 * hi;
    this.lo = Math.floor(lo - margin);
    this.hi = Math.ceil(hi + margin);
  }
}

/** Sorted, merged runs inside `[from, to)`. */
function clipRuns(runs: readonly Run[], from: number, to: number): Run[] {
  const out: Run[] = [];
  const clipped = runs
    .map((r) => ({ start: Math.max(r.start, from), end: Math.min(r.end, to) }))
    .filter((r) => r.start < r.end)
    .sort((x, y) => x.start - y.start);
  for (const r of clipped) {
    const last = out[out.length - 1];
    if (last !== undefined && last.end >= r.start) last.end = Math.max(last.end, r.end);
    else out.push(r);
  }
  return out;
}

/**
 * The band's groups over the move-in runs. Bounds are worked out per stretch of days whose bounds
 * cannot differ: the seasons a stay of the band can touch and the offer's window cut them; where a
 * season is within reach, day by day. Neighbouring stretches with close bounds share one group (equal
 * ones always): a band is only asked about a stay the availability clauses already admitted, so the
 * days between two possible move-in dates (a Sunday without move-ins, a reserved stretch) join the
 * group before them, and the groups cover a few long spans instead of one per bookable stretch.
 */
function bandGroupsOver(band: BandBounds, runs: Run[], seasonReach: Run[], offerCuts: number[]): BandGroup[] {
  const groups: BandGroup[] = [];
  let current: BandGroup | null = null;
  let width = 0;
  let r = 0;
  for (const run of runs) {
    let day = run.start;
    while (day < run.end) {
      while (r < seasonReach.length && seasonReach[r].end <= day) r++;
      const reach = seasonReach[r];
      let next = day + 1;
      if (reach === undefined || reach.start > day) {
        next = Math.min(run.end, reach?.start ?? Infinity);
        for (const c of offerCuts) if (c > day && c < next) next = c;
      }
      band.at(day);
      const { lo, hi } = band;
      if (current !== null) {
        const last = current.runs[current.runs.length - 1];
        const merged = Math.max(current.hi, hi) - Math.min(current.lo, lo);
        const wider = Math.max(width, hi - lo);
        if (merged <= wider + MERGE_TOLERANCE * Math.min(current.lo, lo) + 1) {
          current.lo = Math.min(current.lo, lo);
          current.hi = Math.max(current.hi, hi);
          width = wider;
          last.end = next;
          day = next;
          continue;
        }
        last.end = day;
      }
      current = { runs: [{ start: day, end: next }], lo, hi };
      width = hi - lo;
      groups.push(current);
      day = next;
    }
  }
  return groups;
}

/** Runs of move-in days (day numbers) sharing bounds, in one band of stay lengths. */
interface BandGroup {
  runs: Run[];
  lo: number;
  hi: number;
}

/**
 * The bands of a home over the move-in dates a fixed stay can start on (`groups`, from stayStarts),
 * up to START_HORIZON_DAYS after `today`. A band is left out where no stay of its length can start.
 */
export function priceBands(home: PricingInputs, groups: readonly StayStartGroup[], today: IsoDate): PriceBand[] {
  return bandGroups(home, groups, today).flatMap(({ nights, groups: list }) => {
    const byBounds = new Map<string, PriceBand>();
    for (const g of list) {
      const key = `${g.lo}:${g.hi}`;
      const same = byBounds.get(key);
      if (same) same.move_in.push(...g.runs);
      else byBounds.set(key, { move_in: [...g.runs], nights, lo: g.lo, hi: g.hi });
    }
    return [...byBounds.values()];
  });
}

/** The band groups of every band of stay lengths, in day numbers. */
function bandGroups(home: PricingInputs, groups: readonly StayStartGroup[], today: IsoDate): Array<{ nights: PriceBand['nights']; groups: BandGroup[] }> {
  const origin = toDayNumber(today);
  const until = origin + START_HORIZON_DAYS;
  const season = home.seasonal_discounts.length > 0 ? new SeasonalNights(home, origin, START_HORIZON_DAYS + LONGEST_STAY_NIGHTS + 1) : null;
  const offer = home.special_offer;
  const offerCuts = offer === null ? [] : [toDayNumber(offer.start_date), toDayNumber(offer.end_date)];
  const out: Array<{ nights: PriceBand['nights']; groups: BandGroup[] }> = [];
  const starts = groups.map((g) => ({ minimum: g.minimum_nightly_stay, runs: g.fixed_move_in }));
  const seasons = home.seasonal_discounts.map((p) => ({ start: toDayNumber(p.start_date), end: toDayNumber(p.end_date) }));
  for (const [a, b] of nightBands(home)) {
    const runs = clipRuns(
      starts.filter((g) => g.minimum <= b).flatMap((g) => g.runs),
      origin,
      until,
    );
    if (runs.length === 0) continue;
    // A stay of at most b nights from day s touches a season [ps, pe) when ps - b < s < pe.
    const reach = clipRuns(
      seasons.map((p) => ({ start: p.start + 1 - b, end: p.end })),
      origin,
      until,
    );
    const band = new BandBounds(home, season, a, b);
    out.push({ nights: { gte: a, lte: b }, groups: bandGroupsOver(band, runs, reach, offerCuts) });
  }
  return out;
}

/** The months from `today` on and their cells' keys (by month, then by CELL_NIGHT_CUTS), for the day every home of a rebuild shares. */
let cellTable: { today: IsoDate; months: Array<{ day: number; month: string }>; keys: string[][] } | null = null;
function cellsFrom(today: IsoDate): NonNullable<typeof cellTable> {
  if (cellTable?.today !== today) {
    const months = monthStarts(today);
    cellTable = { today, months, keys: months.map((m) => CELL_NIGHT_CUTS.map((cut) => cellKeyOf(m.month, cut))) };
  }
  return cellTable;
}

/**
 * The price cells of a home (kernel/store/price-cells.ts): per move-in month and band of stay
 * lengths, the least lower and the greatest upper bound of its bands there. Worked out in day
 * numbers, from the same groups as priceBands (the bands a cell covers are the bands it bounds),
 * month by month in arrays, then written under the cells' keys (two months share a cell).
 */
export function priceCells(home: PricingInputs, groups: readonly StayStartGroup[], today: IsoDate): { lo: Record<string, number>; hi: Record<string, number> } {
  const { months, keys } = cellsFrom(today);
  const count = months.length;
  const least = new Float64Array(CELL_NIGHT_CUTS.length * count).fill(Infinity);
  const most = new Float64Array(CELL_NIGHT_CUTS.length * count).fill(-Infinity);
  for (const { nights, groups: list } of bandGroups(home, groups, today)) {
    const row = CELL_NIGHT_CUTS.indexOf(nightCut(nights.gte) as (typeof CELL_NIGHT_CUTS)[number]) * count;
    // The groups' runs come in day order: the first month a run can meet only moves forward.
    let first = 0;
    for (const g of list) {
      for (const run of g.runs) {
        while (first + 1 < count && months[first + 1].day <= run.start) first++;
        for (let m = first; m + 1 < count && months[m].day < run.end; m++) {
          if (g.lo < least[row + m]) least[row + m] = g.lo;
          if (g.hi > most[row + m]) most[row + m] = g.hi;
        }
      }
    }
  }
  const lo: Record<string, number> = {};
  const hi: Record<string, number> = {};
  for (let c = 0; c < CELL_NIGHT_CUTS.length; c++) {
    for (let m = 0; m < count; m++) {
      const i = c * count + m;
      if (least[i] === Infinity) continue;
      const key = keys[m][c];
      if (!(key in lo) || least[i] < lo[key]) lo[key] = least[i];
      if (!(key in hi) || most[i] > hi[key]) hi[key] = most[i];
    }
  }
  return { lo, hi };
}

/** The first day of each month from today's to the one after the start horizon's, with its `YYYY-MM`. */
function monthStarts(today: IsoDate): Array<{ day: number; month: string }> {
  const out: Array<{ day: number; month: string }> = [];
  const last = addDays(today, START_HORIZON_DAYS);
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7));
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    out.push({ day: toDayNumber(`${month}-01`), month });
    if (month > last.slice(0, 7)) return out;
    if (++m === 13) {
      m = 1;
      y += 1;
    }
  }
}
