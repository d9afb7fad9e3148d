/**
 * The counts a search answers with `facets=true`, as the form shows them: how many homes each
 * filter, bedroom choice and rating would leave, and the price histogram above the price ceiling.
 * Pure: the answer's `facets` in, labels, counts and bars out.
 */
import { FLAG_LABELS } from '../../kernel/store/flag-fields';

/** The searches' boolean filters, in the form's order, with their labels (the API's names; the labels the market filters answer with). */
export type Filter = keyof typeof FLAG_LABELS;
export const FILTERS: ReadonlyArray<readonly [Filter, string]> = (Object.keys(FLAG_LABELS) as Filter[]).map((name) => [name, FLAG_LABELS[name]] as const);
export const FILTER_NAMES: readonly Filter[] = FILTERS.map(([name]) => name);

/** The guest_rating buckets, strictest first, with their labels. */
export const RATINGS = [
  ['EXCELLENT', 'Excellent (4.5+)'],
  ['VERY_GOOD', 'Very good (4.0+)'],
  ['GOOD', 'Good (3.5+)'],
] as const;
export type Rating = (typeof RATINGS)[number][0];
export const RATING_NAMES: readonly Rating[] = RATINGS.map(([name]) => name);

export type PriceUnit = 'per_night' | 'per_month';

export interface PriceBucket {
  /** Whole dollars, inclusive. */
  min: number;
  max: number;
  count: number;
}

export interface Facets {
  filters: Array<{ filter: string; count: number }>;
  bedrooms: Array<{ bedrooms: number; count: number }>;
  guest_rating: Array<{ guest_rating: string; count: number }>;
  price: { unit: PriceUnit; buckets: PriceBucket[] };
}

const NIGHTS_PER_MONTH = 30;

/** "Parking (42)"; the label alone when there is no count to show. */
export const withCount = (label: string, count: number | null): string => (count === null ? label : `${label} (${count.toLocaleString('en-US')})`);

/** The total the search would have with `filter` set: null without facets, 0 when the answer leaves it out. */
export function filterCount(facets: Facets | null, filter: Filter): number | null {
  if (!facets) return null;
  return facets.filters.find((f) => f.filter === filter)?.count ?? 0;
}

/** Homes with at least `min` bedrooms (the form's "2+"), from the exact counts per bedroom; `null` min: any. */
export function bedroomsCount(facets: Facets | null, min: number | null): number | null {
  if (!facets) return null;
  return facets.bedrooms.filter((b) => min === null || b.bedrooms >= min).reduce((sum, b) => sum + b.count, 0);
}

export function ratingCount(facets: Facets | null, rating: Rating): number | null {
  if (!facets) return null;
  return facets.guest_rating.find((r) => r.guest_rating === rating)?.count ?? 0;
}

/**
 * A choice with no home behind it is shown disabled, unless it is the one chosen (it must stay
 * possible to undo it); without counts nothing is.
 */
export const emptyChoice = (count: number | null, chosen: boolean): boolean => count === 0 && !chosen;

/** The monthly price ceiling of the form in the histogram's unit (a nightly price is compared with a thirtieth of it, as the API does). */
export function ceilingIn(unit: PriceUnit, monthly: number | null): number | null {
  if (monthly === null) return null;
  return unit === 'per_month' ? monthly : Math.floor(monthly / NIGHTS_PER_MONTH);
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  bucket: PriceBucket;
  /** Within the ceiling (every bar when there is none). */
  inside: boolean;
}

/**
 * The histogram's bars in a `width` × `height` box, one per bucket in order, as tall as its count
 * against the largest (a bucket with any home at least 2 units tall, so it can be seen); a bar is
 * inside when the whole bucket is at or under the ceiling.
 */
export function histogramBars(buckets: readonly PriceBucket[], ceiling: number | null, width: number, height: number, gap = 2): Bar[] {
  if (buckets.length === 0) return [];
  const top = Math.max(...buckets.map((b) => b.count));
  const step = width / buckets.length;
  const barWidth = Math.max(1, step - gap);
  return buckets.map((bucket, i) => {
    const h = top === 0 || bucket.count === 0 ? 0 : Math.max(2, (bucket.count / top) * height);
    return {
      x: round2(i * step + (step - barWidth) / 2),
      y: round2(height - h),
      width: round2(barWidth),
      height: round2(h),
      bucket,
      inside: ceiling === null || bucket.max <= ceiling,
    };
  });
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

const dollars = (n: number): string => `$${n.toLocaleString('en-US')}`;

/** "$1,000–$1,499: 12 homes" */
export function bucketLabel(b: PriceBucket): string {
  return `${dollars(b.min)}–${dollars(b.max)}: ${b.count} home${b.count === 1 ? '' : 's'}`;
}

/** The histogram read aloud: its unit and each bucket that holds a home. */
export function histogramSummary(price: Facets['price']): string {
  const held = price.buckets.filter((b) => b.count > 0);
  const unit = price.unit === 'per_night' ? 'per night' : 'per month';
  if (held.length === 0) return `Prices ${unit}: no matching home.`;
  return `Prices ${unit} of the matching homes: ${held.map(bucketLabel).join('; ')}.`;
}
