import { displayPrice, fixedStatements, priceStay } from '../../../services/kernel/engine/pricing';
import type { StayRequest } from '../../../services/kernel/engine/types';
import { makeHome } from '../../support/arbitraries';

const NO_PETS = { cats: 0, dogs: 0 };
const ONE_DOG = { cats: 0, dogs: 1 };

function flex(committed_nights: number): StayRequest {
  return { kind: 'flex', start_date: '2027-01-01', committed_nights };
}

/** Base $3,000 a month; the 180-night tier at $2,800.01 (odd cents, to show the half of the rent). */
const home = makeHome({
  fees: { cleaning_fee_cents: 15_000, monthly_service_fee_cents: 9_000, pet_fee_cents: 20_000, monthly_pet_rent_cents: 3_000 },
  flex_tiers: [
    { committed_nights: 180, monthly_rate_cents: 280_001 },
    { committed_nights: 270, monthly_rate_cents: 270_000 },
    { committed_nights: 365, monthly_rate_cents: 260_000 },
  ],
});

describe('priceStay: Flex stays', () => {
  it('charges half the first month rent, the service fee, pet rent and pet fees at checkout and defers the rest', () => {
    const { charge_schedule: schedule } = priceStay(home, flex(180), ONE_DOG);
    expect(schedule).toEqual({
      checkout: { total: 1720 }, // 1,400.00 + 90.00 + 30.00 + 200.00
      deferred: { total: 1400.01 }, // 2,800.01 - 1,400.00
      monthly: { total: 2920.01 }, // 2,800.01 + 90.00 + 30.00
    });
  });

  it('makes the first month checkout plus deferred, to the cent', () => {
    const { charge_schedule: s } = priceStay(home, flex(180), ONE_DOG);
    // First month: the monthly statement plus the one-time pet fee.
    expect(Math.round((s.checkout?.total ?? 0) * 100) + Math.round((s.deferred?.total ?? 0) * 100)).toBe(292_001 + 20_000);
  });

  it('has no total_cost and no final month, and reports the monthly statement as monthly_total', () => {
    const pricing = priceStay(home, flex(180), NO_PETS);
    expect(pricing.charge_schedule).not.toHaveProperty('total_cost');
    expect(pricing.charge_schedule).not.toHaveProperty('final_month');
    expect(pricing.monthly_total).toBe(2890.01);
  });

  it('spreads the move-out cleaning fee and pet fees over the committed term in the display price', () => {
    const pricing = priceStay(home, flex(180), ONE_DOG);
    // (292,001 × 180 + 35,000 × 30) / 180 = 297,834.33 cents a month: $2,978.
    expect(pricing.display_price_with_discount).toBe(2978);
    // Without the tier: (312,000 × 180 + 35,000 × 30) / 180 = 317,833.33 cents: $3,178.
    expect(pricing.display_price_without_discount).toBe(3178);
    expect(displayPrice(home, flex(180)).display_price_with_discount).toBe(2915);
  });

  it('reports total_discount 0: Flex has no seasonal or length-of-stay discount, and the tier rate is the price', () => {
    expect(priceStay(home, flex(180), NO_PETS).total_discount).toBe(0);
    expect(priceStay(home, flex(270), ONE_DOG).total_discount).toBe(0);
    expect(priceStay(home, flex(365), NO_PETS).total_discount).toBe(0);
  });

  it('labels the price per month with the committed months', () => {
    expect(priceStay(home, flex(180), NO_PETS)).toMatchObject({
      display_price_label: 'per month with a 6-month Flex commitment',
      term_duration_label: '6 months committed',
      is_price_monthly: true,
      is_price_nightly: false,
      duration_label: '/mo',
      currency: 'USD',
    });
    expect(priceStay(home, flex(365), NO_PETS).term_duration_label).toBe('12 months committed');
    expect(priceStay(home, flex(270), NO_PETS).display_price_label).toBe('per month with a 9-month Flex commitment');
  });

  it('applies no seasonal, length-of-stay or special-offer discount: the tier is the discount', () => {
    const discounted = makeHome({
      ...home,
      seasonal_discounts: [{ start_date: '2027-01-01', end_date: '2027-12-01', percent: 20, label: 'Year' }],
      length_of_stay_discounts: [{ min_nights: 28, percent: 10 }],
      special_offer: { start_date: '2027-01-01', end_date: '2027-01-10', percent: 10, label: 'Offer' },
    });
    expect(priceStay(discounted, flex(180), ONE_DOG)).toEqual(priceStay(home, flex(180), ONE_DOG));
    expect(priceStay(discounted, flex(180), ONE_DOG).total_discount).toBe(0);
  });

  it('throws for a tier the apartment does not offer, and for an apartment that opts out', () => {
    expect(() => priceStay(home, flex(200), NO_PETS)).toThrow(Error);
    expect(() => priceStay(makeHome({ ...home, flex_eligible: false }), flex(180), NO_PETS)).toThrow(Error);
  });

  it('has no 30-night statements: fixedStatements refuses a Flex stay', () => {
    expect(() => fixedStatements(home, flex(180), NO_PETS)).toThrow(Error);
  });
});
