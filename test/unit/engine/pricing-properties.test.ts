import fc from 'fast-check';
import type { HomeRecord, IsoDate } from '../../../services/kernel/inventory/records';
import { addDays, daysBetween } from '../../../services/kernel/engine/dates';
import { offeredTiers } from '../../../services/kernel/engine/flex';
import { displayPrice, fixedStatements, priceStay } from '../../../services/kernel/engine/pricing';
import type { Pets, StayRequest } from '../../../services/kernel/engine/types';
import { arbHome, arbStay } from '../../support/arbitraries';
import { runs } from '../../support/property-runs';

const RUNS = runs(1000);
const TODAY = '2026-11-22';

type FixedStay = Extract<StayRequest, { kind: 'fixed' }>;

const arbPets: fc.Arbitrary<Pets> = fc
  .record({ cats: fc.integer({ min: 0, max: 2 }), dogs: fc.integer({ min: 0, max: 2 }) })
  .filter((p) => p.cats + p.dogs <= 2);

const arbFixedCase: fc.Arbitrary<{ home: HomeRecord; stay: FixedStay; pets: Pets }> = arbHome(TODAY).chain((home) =>
  fc.record({
    home: fc.constant(home),
    stay: arbStay(home, TODAY).map((s): FixedStay =>
      s.kind === 'fixed' ? s : { kind: 'fixed', start_date: s.start_date, end_date: addDays(s.start_date, 45) },
    ),
    pets: arbPets,
  }),
);

const arbFlexCase = arbHome(TODAY)
  .map((home) => ({ ...home, flex_eligible: true }))
  .filter((home) => offeredTiers(home).length > 0)
  .chain((home) =>
    fc.record({
      home: fc.constant(home),
      stay: fc
        .record({ offset: fc.integer({ min: 0, max: 400 }), tier: fc.constantFrom(...offeredTiers(home)) })
        .map(({ offset, tier }): StayRequest => ({ kind: 'flex', start_date: addDays(TODAY, offset), committed_nights: tier.committed_nights })),
      pets: arbPets,
    }),
  );

const cents = (dollars: number) => Math.round(dollars * 100);

/** Statements priced the plain way, night by night in floating point, straight from docs/pricing.md. */
function floatStatements(home: HomeRecord, stay: FixedStay, pets: Pets): number[] {
  const n = daysBetween(stay.start_date, stay.end_date);
  const count = pets.cats + pets.dogs;
  const perNight = n < 30 ? home.nightly_rate_cents : home.monthly_rate_cents / 30;
  const los = home.length_of_stay_discounts.filter((t) => t.min_nights <= n).sort((a, b) => b.min_nights - a.min_nights || b.percent - a.percent)[0];
  const offer = home.special_offer;
  const offerPercent = offer !== null && offer.start_date <= stay.start_date && stay.start_date < offer.end_date ? offer.percent : 0;
  const statements: number[] = [];
  for (let i = 0; i < n; i++) {
    const d: IsoDate = addDays(stay.start_date, i);
    const seasonal = Math.max(0, ...home.seasonal_discounts.filter((p) => p.start_date <= d && d < p.end_date).map((p) => p.percent));
    const rent = perNight * (1 - seasonal / 100) * (1 - (los?.percent ?? 0) / 100) * (1 - offerPercent / 100);
    const fees = (home.fees.monthly_service_fee_cents + home.fees.monthly_pet_rent_cents * count) / 30;
    const k = Math.floor(i / 30);
    statements[k] = (statements[k] ?? 0) + rent + fees;
  }
  return statements.map((s, k) => Math.round(s) + (k === 0 ? home.fees.cleaning_fee_cents + home.fees.pet_fee_cents * count : 0));
}

/** Cents taken off by the seasonal and length-of-stay discounts, in floating point ("Quote": not the offer). */
function floatSeasonalLosDiscount(home: HomeRecord, stay: FixedStay): number {
  const n = daysBetween(stay.start_date, stay.end_date);
  const perNight = n < 30 ? home.nightly_rate_cents : home.monthly_rate_cents / 30;
  const los = home.length_of_stay_discounts.filter((t) => t.min_nights <= n).sort((a, b) => b.min_nights - a.min_nights || b.percent - a.percent)[0];
  let off = 0;
  for (let i = 0; i < n; i++) {
    const d: IsoDate = addDays(stay.start_date, i);
    const seasonal = Math.max(0, ...home.seasonal_discounts.filter((p) => p.start_date <= d && d < p.end_date).map((p) => p.percent));
    off += perNight * (1 - (1 - seasonal / 100) * (1 - (los?.percent ?? 0) / 100));
  }
  return Math.round(off);
}

describe('priceStay (properties over random homes and stays)', () => {
  it('charges the fixed statements in the schedule sections, and they sum to total_cost exactly', () => {
    fc.assert(
      fc.property(arbFixedCase, ({ home, stay, pets }) => {
        const statements = fixedStatements(home, stay, pets);
        const { charge_schedule: schedule, monthly_total } = priceStay(home, stay, pets);
        const total = statements.reduce((a, b) => a + b, 0);
        expect(cents(schedule.total_cost ?? NaN)).toBe(total);
        expect(schedule.checkout === undefined ? 0 : cents(schedule.checkout.total)).toBe(statements[0]);
        const last = statements[statements.length - 1];
        if (statements.length >= 2) expect(schedule.final_month === undefined ? 0 : cents(schedule.final_month.total)).toBe(last);
        else expect(schedule.final_month).toBeUndefined();
        if (statements.length >= 3) expect(schedule.monthly === undefined ? 0 : cents(schedule.monthly.total)).toBe(statements[1]);
        else expect(schedule.monthly).toBeUndefined();
        expect(monthly_total).toBe(schedule.monthly?.total);
        expect(schedule.deferred).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('prices each fixed statement within a cent of the night-by-night floating-point reading of the model', () => {
    fc.assert(
      fc.property(arbFixedCase, ({ home, stay, pets }) => {
        const exact = fixedStatements(home, stay, pets);
        const plain = floatStatements(home, stay, pets);
        expect(exact.length).toBe(Math.ceil(daysBetween(stay.start_date, stay.end_date) / 30));
        exact.forEach((s, k) => expect(Math.abs(s - plain[k])).toBeLessThanOrEqual(1));
      }),
      { numRuns: RUNS },
    );
  });

  it('makes fixed total_discount the seasonal and length-of-stay discounts, within a cent of the floating-point reading', () => {
    fc.assert(
      fc.property(arbFixedCase, ({ home, stay, pets }) => {
        const { total_discount } = priceStay(home, stay, pets);
        expect(Math.abs(cents(total_discount) - floatSeasonalLosDiscount(home, stay))).toBeLessThanOrEqual(1);
      }),
      { numRuns: RUNS },
    );
  });

  it('leaves the special offer out of total_discount and of the price without discount, while it never raises the price', () => {
    fc.assert(
      fc.property(arbFixedCase, ({ home, stay, pets }) => {
        const offered = priceStay(home, stay, pets);
        const plain = priceStay({ ...home, special_offer: null }, stay, pets);
        expect(offered.total_discount).toBe(plain.total_discount);
        expect(offered.display_price_without_discount).toBe(plain.display_price_without_discount);
        expect(cents(offered.charge_schedule.total_cost ?? NaN)).toBeLessThanOrEqual(cents(plain.charge_schedule.total_cost ?? NaN));
        expect(offered.display_price_with_discount).toBeLessThanOrEqual(plain.display_price_with_discount);
      }),
      { numRuns: RUNS },
    );
  });

  it('reports total_discount 0 for every Flex stay', () => {
    fc.assert(
      fc.property(arbFlexCase, ({ home, stay, pets }) => {
        expect(priceStay(home, stay, pets).total_discount).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('makes the Flex first month exactly checkout + deferred, with no total_cost and no final month', () => {
    fc.assert(
      fc.property(arbFlexCase, ({ home, stay, pets }) => {
        if (stay.kind !== 'flex') return;
        const tier = offeredTiers(home).find((t) => t.committed_nights === stay.committed_nights);
        const count = pets.cats + pets.dogs;
        const firstMonth =
          (tier?.monthly_rate_cents ?? NaN) + home.fees.monthly_service_fee_cents + (home.fees.monthly_pet_rent_cents + home.fees.pet_fee_cents) * count;
        const { charge_schedule: schedule } = priceStay(home, stay, pets);
        expect(cents(schedule.checkout?.total ?? 0) + cents(schedule.deferred?.total ?? 0)).toBe(firstMonth);
        expect(schedule.total_cost).toBeUndefined();
        expect(schedule.final_month).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('never shows a display price below 0, nor one above the price without discount', () => {
    fc.assert(
      fc.property(fc.oneof(arbFixedCase, arbFlexCase), ({ home, stay, pets }) => {
        const pricing = priceStay(home, stay, pets);
        expect(pricing.display_price_with_discount).toBeGreaterThanOrEqual(0);
        expect(pricing.display_price_without_discount).toBeGreaterThanOrEqual(pricing.display_price_with_discount);
        expect(Number.isInteger(pricing.display_price_with_discount)).toBe(true);
        expect(pricing.total_discount).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('gives displayPrice the display fields of priceStay without pets, so one stay has one price', () => {
    fc.assert(
      fc.property(fc.oneof(arbFixedCase, arbFlexCase), ({ home, stay }) => {
        const quoted = priceStay(home, stay, { cats: 0, dogs: 0 });
        expect(displayPrice(home, stay)).toEqual({
          display_price_with_discount: quoted.display_price_with_discount,
          display_price_without_discount: quoted.display_price_without_discount,
          display_price_label: quoted.display_price_label,
          is_price_monthly: quoted.is_price_monthly,
          is_price_nightly: quoted.is_price_nightly,
          duration_label: quoted.duration_label,
          price_note: quoted.price_note,
        });
      }),
      { numRuns: RUNS },
    );
  });
});
