import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedStatements, priceStay } from '../../../services/kernel/engine/pricing';
import type { Pets, StayRequest } from '../../../services/kernel/engine/types';
import { makeHome, openRange } from '../../support/arbitraries';

const DOC = readFileSync(join(__dirname, '../../../docs/pricing.md'), 'utf8');

/** The JSON of the fenced block tagged `json <tag>` in docs/pricing.md. */
function docBlock(tag: string): unknown {
  const match = new RegExp('```json ' + tag + '\\n([\\s\\S]*?)\\n```').exec(DOC);
  if (match === null) throw new Error(`docs/pricing.md has no \`\`\`json ${tag} block`);
  return JSON.parse(match[1]);
}

/** The worked example's apartment, built here independently of the doc's JSON. */
const home = makeHome({
  nightly_rate_cents: 15_000,
  monthly_rate_cents: 300_000,
  fees: { cleaning_fee_cents: 15_000, monthly_service_fee_cents: 9_000, pet_fee_cents: 25_000, monthly_pet_rent_cents: 6_000 },
  seasonal_discounts: [{ start_date: '2027-01-10', end_date: '2027-01-19', percent: 10, label: 'January lull' }],
  length_of_stay_discounts: [
    { min_nights: 28, percent: 5 },
    { min_nights: 90, percent: 10 },
  ],
  special_offer: { start_date: '2026-12-01', end_date: '2026-12-20', percent: 3, label: 'Move in by Dec 20' },
  flex_eligible: true,
  flex_tiers: [
    { committed_nights: 180, monthly_rate_cents: 270_000 },
    { committed_nights: 365, monthly_rate_cents: 255_000 },
  ],
  minimum_nightly_stay: 1,
  calendar: [openRange('2026-12-01', null)],
});

const ONE_DOG: Pets = { cats: 0, dogs: 1 };
const FIXED: StayRequest = { kind: 'fixed', start_date: '2026-12-15', end_date: '2027-01-29' };
const FLEX: StayRequest = { kind: 'flex', start_date: '2027-02-01', committed_nights: 180 };

describe('docs/pricing.md worked example', () => {
  it('describes the same apartment the test builds', () => {
    const {
      nightly_rate_cents,
      monthly_rate_cents,
      fees,
      seasonal_discounts,
      length_of_stay_discounts,
      special_offer,
      flex_eligible,
      flex_tiers,
      minimum_nightly_stay,
    } = home;
    expect(docBlock('example-home')).toEqual({
      nightly_rate_cents,
      monthly_rate_cents,
      fees,
      seasonal_discounts,
      length_of_stay_discounts,
      special_offer,
      flex_eligible,
      flex_tiers,
      minimum_nightly_stay,
    });
  });

  it('prices the 45-night stay with one dog in the statements computed by hand', () => {
    expect(fixedStatements(home, FIXED, ONE_DOG)).toEqual([327_764, 141_118]);
  });

  it('returns exactly the quote pricing of the 45-night stay shown in the doc', () => {
    const pricing = priceStay(home, FIXED, ONE_DOG);
    expect(pricing).toEqual(docBlock('quote-fixed'));
    expect(pricing.display_price_with_discount).toBe(3126);
    expect(pricing.charge_schedule.total_cost).toBe(4688.82);
    expect(pricing.total_discount).toBe(310.5);
  });

  it('lowers the 45-night stay by the special offer but leaves the offer out of total_discount', () => {
    const withoutOffer = makeHome({ ...home, special_offer: null });
    const offered = priceStay(home, FIXED, ONE_DOG);
    const plain = priceStay(withoutOffer, FIXED, ONE_DOG);
    // Seasonal 9 × $10.00 = $90.00, then 5% of $4,410.00 = $220.50: $310.50 either way.
    expect(offered.total_discount).toBe(310.5);
    expect(plain.total_discount).toBe(310.5);
    // The offer still lowers the price: without it the statements are 336200 + 145250 cents.
    expect(fixedStatements(withoutOffer, FIXED, ONE_DOG)).toEqual([336_200, 145_250]);
    expect(plain.charge_schedule.total_cost).toBe(4814.5);
    expect(offered.charge_schedule.total_cost).toBe(4688.82);
    expect(offered.display_price_with_discount).toBeLessThan(plain.display_price_with_discount);
    // The price before any discount is the same with or without the offer.
    expect(offered.display_price_without_discount).toBe(plain.display_price_without_discount);
  });

  it('returns exactly the quote pricing of the 6-month Flex stay shown in the doc', () => {
    const pricing = priceStay(home, FLEX, ONE_DOG);
    expect(pricing).toEqual(docBlock('quote-flex'));
    expect(pricing.display_price_with_discount).toBe(2917);
    expect(pricing.charge_schedule.checkout?.total).toBe(1750);
    expect(pricing.charge_schedule.deferred?.total).toBe(1350);
    expect(pricing.total_discount).toBe(0);
  });
});
