/** The one rating threshold of the apartment and the building search (rule 4), by its output. */
import { GUEST_RATING_BUCKETS_TEXT, ratingThreshold } from '../../../services/kernel/limits/rating';

describe('ratingThreshold', () => {
  it('takes a numeric guest_rating as the building search passes it, the stricter beside min_rating', () => {
    expect(ratingThreshold({ guest_rating: 3.9 })).toBe(3.9);
    expect(ratingThreshold({ guest_rating: 4.2, min_rating: 4.1 })).toBe(4.2);
    expect(ratingThreshold({ guest_rating: 3.6, min_rating: 4.1 })).toBe(4.1);
    expect(ratingThreshold({ guest_rating: 'GOOD', min_rating: 3 })).toBe(3.5);
  });

  it('names the buckets in the descriptions with one decimal', () => {
    expect(GUEST_RATING_BUCKETS_TEXT).toBe('EXCELLENT (>= 4.5), VERY_GOOD (>= 4.0), GOOD (>= 3.5)');
  });
});
