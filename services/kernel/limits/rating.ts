/**
 * The building-rating threshold of a search: min_rating, guest_rating as a bucket or (the building
 * search) a number; with several, the stricter applies. Unrated buildings never meet a threshold.
 */
import { ratingThresholdSchema } from '../inventory/schema-pieces';

/** The guest_rating buckets and the lowest rating each admits. */
export const GUEST_RATING_BUCKETS = { EXCELLENT: 4.5, VERY_GOOD: 4.0, GOOD: 3.5 } as const;
export type GuestRatingBucket = keyof typeof GUEST_RATING_BUCKETS;
export const GUEST_RATING_NAMES = Object.keys(GUEST_RATING_BUCKETS) as GuestRatingBucket[];

/** The buckets as a description names them: `EXCELLENT (>= 4.5), VERY_GOOD (>= 4.0), GOOD (>= 3.5)`. */
export const GUEST_RATING_BUCKETS_TEXT = GUEST_RATING_NAMES.map((name) => `${name} (>= ${GUEST_RATING_BUCKETS[name].toFixed(1)})`).join(', ');

/** The range of a threshold as a description names it: `1-5`. */
export const RATING_RANGE_TEXT = `${ratingThresholdSchema.minimum}-${ratingThresholdSchema.maximum}`;

export interface RatingArgs {
  min_rating?: number;
  guest_rating?: GuestRatingBucket | number;
}

/** The stricter of the thresholds given (a bucket counts as its lowest rating); null when none is. */
export function ratingThreshold(args: RatingArgs): number | null {
  const g = args.guest_rating;
  const given = [args.min_rating, typeof g === 'string' ? GUEST_RATING_BUCKETS[g] : g].filter((x): x is number => x !== undefined);
  return given.length > 0 ? Math.max(...given) : null;
}
