/**
 * Price bands: every bookable fixed stay falls in exactly one band of its home, and its display
 * price lies within that band's bounds (docs/design.md, "Exact prices in search").
 */
import fc from 'fast-check';
import { addDays, daysBetween } from '../../../services/kernel/engine/dates';
import { displayPrice } from '../../../services/kernel/engine/pricing';
import { checkStay } from '../../../services/kernel/engine/stay-check';
import { inRuns, stayStarts } from '../../../services/kernel/engine/stay-starts';
import { LONGEST_STAY_NIGHTS, START_HORIZON_DAYS, nightBands, priceBands } from '../../../indexer/price-bands';
import { arbHomeWithFixedStays, makeHome, openRange } from '../../support/arbitraries';
import { expectCoverage, runs } from '../../support/property-runs';

const NO_PETS = { cats: 0, dogs: 0 };

const arbCase = arbHomeWithFixedStays(12, START_HORIZON_DAYS);

describe('priceBands', () => {
  it('puts every bookable stay in exactly one band whose bounds hold its display price', () => {
    let checked = 0;
    fc.assert(
      fc.property(arbCase, ({ today, home, stays }) => {
        const bands = priceBands(home, stayStarts(home, today).groups, today);
        for (const stay of stays) {
          if (!checkStay(home, stay, NO_PETS, today).available) continue;
          const nights = daysBetween(stay.start_date, stay.end_date);
          const matching = bands.filter((b) => inRuns(b.move_in, stay.start_date) && b.nights.gte <= nights && nights <= b.nights.lte);
          expect(matching).toHaveLength(1);
          const price = displayPrice(home, stay).display_price_with_discount;
          expect(price).toBeGreaterThanOrEqual(matching[0].lo);
          expect(price).toBeLessThanOrEqual(matching[0].hi);
          checked += 1;
        }
      }),
      { numRuns: runs(1500) },
    );
    expectCoverage(() => expect(checked).toBeGreaterThan(500));
  });

  it('holds the bounds for every stay length of a band, at its edges too, with seasons and an offer', () => {
    const home = makeHome({
      calendar: [openRange('2027-01-01', null)],
      fees: { cleaning_fee_cents: 25_000, monthly_service_fee_cents: 9_000, pet_fee_cents: 0, monthly_pet_rent_cents: 0 },
      seasonal_discounts: [
        { start_date: '2027-02-01', end_date: '2027-02-20', percent: 15, label: 'a' },
        { start_date: '2027-02-10', end_date: '2027-04-01', percent: 7, label: 'b' },
      ],
      length_of_stay_discounts: [
        { min_nights: 28, percent: 5 },
        { min_nights: 100, percent: 9 },
      ],
      special_offer: { start_date: '2027-01-15', end_date: '2027-01-25', percent: 10, label: 'offer' },
    });
    const today = '2027-01-05';
    const bands = priceBands(home, stayStarts(home, today).groups, today);
    for (let offset = 0; offset < 90; offset += 3) {
      const start = addDays(today, offset);
      for (let nights = 1; nights <= 200; nights++) {
        const price = displayPrice(home, { kind: 'fixed', start_date: start, end_date: addDays(start, nights) }).display_price_with_discount;
        const band = bands.find((b) => inRuns(b.move_in, start) && b.nights.gte <= nights && nights <= b.nights.lte)!;
        expect(price).toBeGreaterThanOrEqual(band.lo);
        expect(price).toBeLessThanOrEqual(band.hi);
      }
    }
  });

  it('is exact up to the cleaning fee spread when nothing depends on the dates', () => {
    const home = makeHome({
      calendar: [openRange('2027-01-01', null)],
      fees: { cleaning_fee_cents: 0, monthly_service_fee_cents: 0, pet_fee_cents: 0, monthly_pet_rent_cents: 0 },
    });
    const bands = priceBands(home, stayStarts(home, '2027-01-01').groups, '2027-01-01');
    // One entry per stay-length band, each as wide as rounding alone: $150 a night, $3,000 a month.
    expect(bands).toHaveLength(nightBands(home).length);
    for (const b of bands) expect([b.lo, b.hi]).toEqual(b.nights.gte >= 30 ? [2999, 3001] : [149, 151]);
    expect(bands.at(-1)!.nights.lte).toBe(LONGEST_STAY_NIGHTS);
  });
});
