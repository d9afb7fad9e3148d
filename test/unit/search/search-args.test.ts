/** Reading the search arguments (spec: "search_apartments_tool" rules 1, 3, 4; "Limits"), by their output. */
import { ApiError } from '../../../services/kernel/errors';
import { addDays, addYears } from '../../../services/kernel/engine/dates';
import { ratingThreshold, readSearchStay, sharedFiltersOf } from '../../../services/tools/search-args';

const today = '2027-01-10';
const d = (n: number) => addDays(today, n);
const refused = (args: Record<string, unknown>) => {
  try {
    readSearchStay(args, today);
  } catch (err) {
    return (err as ApiError).code;
  }
  return null;
};

describe('readSearchStay', () => {
  it('reads no dates as undated, a move-in date alone, a fixed stay with its nights, Flex with or without a tier', () => {
    expect(readSearchStay({}, today)).toEqual({ kind: 'undated' });
    expect(readSearchStay({ start_date: d(3) }, today)).toEqual({ kind: 'start_only', start_date: d(3) });
    expect(readSearchStay({ start_date: d(3), end_date: d(48) }, today)).toEqual({ kind: 'fixed', start_date: d(3), end_date: d(48), nights: 45 });
    expect(readSearchStay({ start_date: d(3), end_date: 'indefinite', committed_nights: 270 }, today)).toEqual({ kind: 'flex', start_date: d(3), committed_nights: 270 });
    // Rule 3: without committed_nights every apartment open to a Flex stay is listed.
    expect(readSearchStay({ start_date: d(3), end_date: 'indefinite' }, today)).toEqual({ kind: 'flex', start_date: d(3), committed_nights: null });
  });

  it('takes a move-in date from 7 days past to 365 days ahead, an end up to 3 years ahead', () => {
    expect(refused({ start_date: d(-7), end_date: d(3) })).toBeNull();
    expect(refused({ start_date: d(365) })).toBeNull();
    expect(refused({ start_date: d(1), end_date: addYears(today, 3) })).toBeNull();
    expect(refused({ start_date: d(-8) })).toBe('invalid_date');
    expect(refused({ start_date: d(366) })).toBe('invalid_date');
    expect(refused({ start_date: d(1), end_date: addDays(addYears(today, 3), 1) })).toBe('invalid_date');
  });

  it('refuses an end without a start, an end not after the start, unreal dates, and a tier without "indefinite"', () => {
    expect(refused({ end_date: d(3) })).toBe('invalid_parameters');
    expect(refused({ committed_nights: 180 })).toBe('invalid_parameters');
    expect(refused({ start_date: d(3), end_date: d(3) })).toBe('invalid_date');
    expect(refused({ start_date: '2027-02-30' })).toBe('invalid_date');
    expect(refused({ start_date: d(3), end_date: d(40), committed_nights: 180 })).toBe('invalid_parameters');
    expect(refused({ start_date: d(3), committed_nights: 180 })).toBe('invalid_parameters');
  });
});

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
    expect(sharedFiltersOf({ market: 'boston', pool: true, min_bedrooms: 0, max_price: 4000, sort_by: 'newest', near_latitude: 1, near_longitude: 2 })).toEqual({
      pool: true,
      min_bedrooms: 0,
      near_latitude: 1,
      near_longitude: 2,
    });
  });
});
