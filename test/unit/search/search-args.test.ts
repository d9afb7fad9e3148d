/** Reading the search arguments (docs/contract.md, search_apartments_tool rule 4), by their output. */
import { ratingThreshold } from '../../../services/kernel/limits/rating';
import { sharedFiltersOf } from '../../../services/tools/search-args';

describe('ratingThreshold (rule 4)', () => {
  it('takes the stricter of min_rating and the guest_rating bucket', () => {
    expect(ratingThreshold({})).toBeNull();
    expect(ratingThreshold({ min_rating: 3.2 })).toBe(3.2);
    expect(ratingThreshold({ guest_rating: 'VERY_GOOD' })).toBe(4);
    expect(ratingThreshold({ guest_rating: 'EXCELLENT', min_rating: 3.6 })).toBe(4.5);
    expect(ratingThreshold({ guest_rating: 'GOOD', min_rating: 4.8 })).toBe(4.8);
  });
});

describe('sharedFiltersOf', () => {
  it('keeps the shared filter arguments only', () => {
    expect(sharedFiltersOf({ market: 'boston', pool: true, min_bedrooms: 0, max_price: 4000, sort_by: 'newest', near_latitude: 1, near_longitude: 2 })).toEqual(
      {
        pool: true,
        min_bedrooms: 0,
        near_latitude: 1,
        near_longitude: 2,
      },
    );
  });
});
