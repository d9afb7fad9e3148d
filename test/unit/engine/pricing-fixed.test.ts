import type { HomeRecord } from '../../../services/kernel/inventory/records';
import { displayPrice, fixedStatements, priceStay, referenceStay } from '../../../services/kernel/engine/pricing';
import type { StayRequest } from '../../../services/kernel/engine/types';
import { closedRange, makeHome, openRange } from '../../support/arbitraries';

const NO_PETS = { cats: 0, dogs: 0 };
const NO_FEES = { cleaning_fee_cents: 0, monthly_service_fee_cents: 0, pet_fee_cents: 0, monthly_pet_rent_cents: 0 };

function fixed(start_date: string, end_date: string): Extract<StayRequest, { kind: 'fixed' }> {
  return { kind: 'fixed', start_date, end_date };
}

/** $150 a night under 30 nights, $3,000 per 30 nights ($100 a night) from 30 nights. */
const home = makeHome();

describe('priceStay: nightly or monthly', () => {
  it('prices a 29-night stay per night at the nightly rate', () => {
    const pricing = priceStay(home, fixed('2027-01-01', '2027-01-30'), NO_PETS);
    expect(pricing).toMatchObject({
      display_price_with_discount: 150,
      display_price_label: 'per night for 29 nights',
      is_price_nightly: true,
      is_price_monthly: false,
      duration_label: '/night',
      term_duration_label: '29 nights',
      price_note: 'Includes all fees except taxes.',
      currency: 'USD',
    });
    expect(fixedStatements(home, fixed('2027-01-01', '2027-01-30'), NO_PETS)).toEqual([29 * 15_000]);
  });

  it('prices a 30-night stay per month at the monthly rate', () => {
    const pricing = priceStay(home, fixed('2027-01-01', '2027-01-31'), NO_PETS);
    expect(pricing).toMatchObject({
      display_price_with_discount: 3000,
      display_price_label: 'per month for 1 month',
      is_price_monthly: true,
      is_price_nightly: false,
      duration_label: '/mo',
      term_duration_label: '1 month',
    });
    expect(pricing.charge_schedule).toEqual({ checkout: { total: 3000 }, total_cost: 3000 });
  });

  it('labels a stay in months and days, singular forms and zero parts left out', () => {
    expect(priceStay(home, fixed('2027-01-01', '2027-03-12'), NO_PETS).term_duration_label).toBe('2 months 10 days');
    expect(priceStay(home, fixed('2027-01-01', '2027-02-01'), NO_PETS).display_price_label).toBe('per month for 1 month 1 day');
    expect(priceStay(home, fixed('2027-01-01', '2027-01-02'), NO_PETS).display_price_label).toBe('per night for 1 night');
  });
});

describe('priceStay: discounts', () => {
  it('takes a seasonal discount off only the nights inside the period', () => {
    const seasonal = makeHome({ seasonal_discounts: [{ start_date: '2027-01-08', end_date: '2027-01-20', percent: 20, label: 'Winter' }] });
    // 10 nights from 2027-01-01: nights 01-08, 01-09, 01-10 are in the period.
    expect(fixedStatements(seasonal, fixed('2027-01-01', '2027-01-11'), NO_PETS)).toEqual([7 * 15_000 + 3 * 12_000]);
    expect(priceStay(seasonal, fixed('2027-01-01', '2027-01-11'), NO_PETS).total_discount).toBe(90);
  });

  it('applies the largest percent where seasonal periods overlap, not their sum', () => {
    const overlapping = makeHome({
      seasonal_discounts: [
        { start_date: '2027-01-01', end_date: '2027-01-03', percent: 10, label: 'A' },
        { start_date: '2027-01-02', end_date: '2027-01-04', percent: 25, label: 'B' },
      ],
    });
    expect(fixedStatements(overlapping, fixed('2027-01-01', '2027-01-05'), NO_PETS)).toEqual([13_500 + 11_250 + 11_250 + 15_000]);
  });

  it('chooses the length-of-stay tier with the largest min_nights the stay reaches', () => {
    const tiers = makeHome({
      length_of_stay_discounts: [
        { min_nights: 90, percent: 20 },
        { min_nights: 7, percent: 5 },
        { min_nights: 28, percent: 10 },
      ],
    });
    expect(fixedStatements(tiers, fixed('2027-01-01', '2027-01-07'), NO_PETS)).toEqual([6 * 15_000]);
    expect(fixedStatements(tiers, fixed('2027-01-01', '2027-01-08'), NO_PETS)).toEqual([7 * 14_250]);
    expect(fixedStatements(tiers, fixed('2027-01-01', '2027-01-31'), NO_PETS)).toEqual([270_000]);
    expect(fixedStatements(tiers, fixed('2027-01-01', '2027-04-01'), NO_PETS)).toEqual([240_000, 240_000, 240_000]);
  });

  it('applies the special offer only when the move-in date is inside its window', () => {
    const offer = makeHome({ special_offer: { start_date: '2027-01-01', end_date: '2027-01-10', percent: 10, label: 'Move in by Jan 10' } });
    expect(fixedStatements(offer, fixed('2027-01-09', '2027-02-08'), NO_PETS)).toEqual([270_000]);
    expect(fixedStatements(offer, fixed('2027-01-10', '2027-02-09'), NO_PETS)).toEqual([300_000]);
    expect(fixedStatements(offer, fixed('2026-12-31', '2027-01-30'), NO_PETS)).toEqual([300_000]);
  });

  it('stacks seasonal, then length-of-stay, then offer, each off the rent left by the one before', () => {
    const all = makeHome({
      seasonal_discounts: [{ start_date: '2027-01-01', end_date: '2027-03-01', percent: 20, label: 'Winter' }],
      length_of_stay_discounts: [{ min_nights: 28, percent: 10 }],
      special_offer: { start_date: '2027-01-01', end_date: '2027-01-10', percent: 10, label: 'Move in by Jan 10' },
    });
    const pricing = priceStay(all, fixed('2027-01-01', '2027-01-31'), NO_PETS);
    // $100 a night × 0.8 × 0.9 × 0.9 = $64.80 a night.
    expect(pricing.charge_schedule.total_cost).toBe(1944);
    // total_discount counts seasonal and length of stay only: 30 × $100 × (1 − 0.8 × 0.9) = $840.
    expect(pricing.total_discount).toBe(840);
    expect(pricing.display_price_with_discount).toBe(1944);
    expect(pricing.display_price_without_discount).toBe(3000);
  });

  it('leaves the special offer out of total_discount while it still lowers the price', () => {
    const offer = makeHome({ special_offer: { start_date: '2027-01-01', end_date: '2027-01-10', percent: 10, label: 'Move in by Jan 10' } });
    const pricing = priceStay(offer, fixed('2027-01-01', '2027-01-31'), NO_PETS);
    // $100 a night less 10%: $2,700 for 30 nights, but no seasonal or length-of-stay discount.
    expect(pricing.charge_schedule.total_cost).toBe(2700);
    expect(pricing.display_price_with_discount).toBe(2700);
    expect(pricing.display_price_without_discount).toBe(3000);
    expect(pricing.total_discount).toBe(0);
  });

  it('counts only the length-of-stay part of total_discount when an offer stacks on it', () => {
    const both = makeHome({
      length_of_stay_discounts: [{ min_nights: 28, percent: 10 }],
      special_offer: { start_date: '2027-01-01', end_date: '2027-01-10', percent: 10, label: 'Move in by Jan 10' },
    });
    // 5 nights at the nightly rate: $150 × 0.9 (offer) = $135 a night, no length-of-stay tier reached.
    const short = priceStay(both, fixed('2027-01-01', '2027-01-06'), NO_PETS);
    expect(short.charge_schedule.total_cost).toBe(675);
    expect(short.total_discount).toBe(0);
    // 45 nights: $100 × 0.9 × 0.9 = $81 a night; total_discount is the 10% length-of-stay part, 45 × $10.
    const long = priceStay(both, fixed('2027-01-01', '2027-02-15'), NO_PETS);
    expect(long.charge_schedule.total_cost).toBe(3645);
    expect(long.total_discount).toBe(450);
  });

  it('rounds total_discount once over the stay, half up', () => {
    // 3 nights at $150.01 with 50% off the first: $75.005 taken off, rounded to $75.01.
    const odd = makeHome({
      nightly_rate_cents: 15_001,
      seasonal_discounts: [{ start_date: '2027-01-01', end_date: '2027-01-02', percent: 50, label: 'Half' }],
      special_offer: { start_date: '2027-01-01', end_date: '2027-01-02', percent: 10, label: 'Offer' },
    });
    expect(priceStay(odd, fixed('2027-01-01', '2027-01-04'), NO_PETS).total_discount).toBe(75.01);
  });

  it('rounds each statement once, half up, after summing its nights', () => {
    const odd = makeHome({
      nightly_rate_cents: 15_001,
      seasonal_discounts: [{ start_date: '2027-01-01', end_date: '2027-01-02', percent: 50, label: 'Half' }],
    });
    expect(fixedStatements(odd, fixed('2027-01-01', '2027-01-02'), NO_PETS)).toEqual([7_501]);
  });
});

describe('priceStay: fees and pets', () => {
  const withFees: HomeRecord = makeHome({
    fees: { cleaning_fee_cents: 15_000, monthly_service_fee_cents: 9_000, pet_fee_cents: 20_000, monthly_pet_rent_cents: 3_000 },
  });

  it('charges cleaning at checkout and prorates the service fee by night', () => {
    expect(fixedStatements(withFees, fixed('2027-01-01', '2027-02-15'), NO_PETS)).toEqual([300_000 + 9_000 + 15_000, 150_000 + 4_500]);
  });

  it('charges the pet fee per pet at checkout and pet rent per pet per night', () => {
    expect(fixedStatements(withFees, fixed('2027-01-01', '2027-02-15'), { cats: 1, dogs: 1 })).toEqual([
      300_000 + 9_000 + 2 * 3_000 + 15_000 + 2 * 20_000,
      150_000 + 4_500 + 2 * 1_500,
    ]);
  });

  it('spreads the one-time fees over the stay in the all-in display price, pets included only when asked', () => {
    const stay = fixed('2027-01-01', '2027-02-15');
    // (324,000 + 154,500) cents over 45 nights, per 30 nights: $3,190.
    expect(displayPrice(withFees, stay).display_price_with_discount).toBe(3190);
    // With two pets: (370,000 + 157,500) × 30 / 45 = 351,666.67 cents: $3,517.
    expect(priceStay(withFees, stay, { cats: 1, dogs: 1 }).display_price_with_discount).toBe(3517);
  });
});

describe('priceStay: charge schedule', () => {
  it('has only checkout and total_cost for a single statement', () => {
    expect(priceStay(home, fixed('2027-01-01', '2027-01-21'), NO_PETS).charge_schedule).toEqual({ checkout: { total: 3000 }, total_cost: 3000 });
  });

  it('has checkout and a final month for two statements, and no monthly', () => {
    const pricing = priceStay(home, fixed('2027-01-01', '2027-02-15'), NO_PETS);
    expect(pricing.charge_schedule).toEqual({ checkout: { total: 3000 }, final_month: { total: 1500 }, total_cost: 4500 });
    expect(pricing).not.toHaveProperty('monthly_total');
  });

  it('adds the first recurring statement as monthly from three statements', () => {
    const pricing = priceStay(home, fixed('2027-01-01', '2027-03-17'), NO_PETS);
    expect(pricing.charge_schedule).toEqual({
      checkout: { total: 3000 },
      monthly: { total: 3000 },
      final_month: { total: 1500 },
      total_cost: 7500,
    });
    expect(pricing.monthly_total).toBe(3000);
  });

  it('omits the sections where nothing is charged', () => {
    const free = makeHome({ nightly_rate_cents: 0, monthly_rate_cents: 0, fees: NO_FEES });
    expect(priceStay(free, fixed('2027-01-01', '2027-03-17'), NO_PETS).charge_schedule).toEqual({ total_cost: 0 });
  });

  it('refuses to price a stay without nights', () => {
    expect(() => priceStay(home, fixed('2027-01-05', '2027-01-05'), NO_PETS)).toThrow(Error);
  });
});

describe('referenceStay', () => {
  it('is 30 nights from the earliest available date', () => {
    const later = makeHome({ calendar: [closedRange('2026-12-01', '2027-02-01'), openRange('2027-02-01', null)] });
    expect(referenceStay(later, '2026-12-01')).toEqual({ kind: 'fixed', start_date: '2027-02-01', end_date: '2027-03-03' });
  });

  it('starts today when no stay can start', () => {
    const closed = makeHome({ calendar: [closedRange('2026-12-01', null)] });
    expect(referenceStay(closed, '2026-12-01')).toEqual({ kind: 'fixed', start_date: '2026-12-01', end_date: '2026-12-31' });
  });
});
