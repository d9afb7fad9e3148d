/**
 * Every rule of the contract (docs/contract.md) the demo inventory is meant to exercise appears in a 3,000-home run,
 * in roughly the intended share.
 */
import type { HomeRecord } from '../../../services/kernel/inventory/records';
import { calendarSpan } from '../../../stack/demo/calendar';
import { DORMANT_CITY_SLUGS } from '../../../stack/demo/homes';
import { LONG_TERM_FLOOR } from '../../../stack/demo/stay-rules';
import { materialize, nightsBetween, openRuns, share, TODAY, type Materialized } from './fixture';

let inv: Materialized;
let homes: HomeRecord[];
beforeAll(() => {
  inv = materialize();
  homes = inv.homes;
});

const span = calendarSpan(TODAY);
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

// Rules that hold for every home are checked home by home and asserted once, on the homes that break them:
// an expect() per home costs more than the check, over thousands of homes.

describe('availability rules', () => {
  it('varies the minimum-stay floor over {1, 2, 3, 7, 30}, plus a few long-term-only homes', () => {
    const floors = new Set(homes.map((h) => h.minimum_nightly_stay));
    expect([...floors].sort((a, b) => a - b)).toEqual([1, 2, 3, 7, 30, LONG_TERM_FLOOR]);
    expect(share(homes, (h) => h.minimum_nightly_stay === LONG_TERM_FLOOR)).toBeLessThan(0.03);
    // Their 180-night Flex tier lies below the floor: get_flex_options_tool drops it.
    expect(homes.some((h) => h.flex_tiers.some((t) => t.committed_nights < h.minimum_nightly_stay))).toBe(true);
  });

  it('has stricter minimum-stay stretches on some homes, none on others, each stricter than the floor', () => {
    const withRules = homes.filter((h) => h.minimum_stay_rules.length > 0);
    expect(withRules.length / homes.length).toBeGreaterThan(0.2);
    expect(withRules.length).toBeLessThan(homes.length);
    for (const h of withRules) {
      for (const r of h.minimum_stay_rules) {
        expect(r.minimum_nightly_stay).toBeGreaterThan(h.minimum_nightly_stay);
        expect(r.start_date >= span.start && r.end_date <= span.end && r.start_date < r.end_date).toBe(true);
      }
      h.minimum_stay_rules.slice(1).forEach((r, i) => expect(r.start_date >= h.minimum_stay_rules[i].end_date).toBe(true));
    }
    // A stricter stretch starting inside an open window binds only the stays that start there.
    expect(
      homes.some((h) => h.minimum_stay_rules.some((r) => openRuns(h.calendar).some((w) => w.start < r.start_date && (w.end === null || w.end > r.start_date)))),
    ).toBe(true);
  });

  it('blocks ranges as reserved (3-90 nights), owner hold, maintenance and turnover', () => {
    const closed = homes.flatMap((h) => h.calendar.filter((s) => !s.open_for_occupancy));
    const reasons = new Set(closed.map((s) => s.unbookable_reason));
    expect([...reasons].sort()).toEqual(['maintenance', 'owner_hold', 'reserved', 'turnover']);
    const reserved = closed.filter((s) => s.unbookable_reason === 'reserved' && s.start_date > span.start && s.end_date !== span.end);
    const nights = reserved.map((s) => nightsBetween(s.start_date, s.end_date as string));
    expect(Math.min(...nights)).toBe(3);
    expect(Math.max(...nights)).toBe(90);
  });

  it('has one-day segments that forbid a move-in and one-day segments that forbid a move-out', () => {
    const oneDay = homes.flatMap((h) => h.calendar.filter((s) => s.open_for_occupancy && s.end_date === addDays(s.start_date, 1)));
    expect(oneDay.some((s) => !s.move_in_allowed && s.move_out_allowed)).toBe(true);
    expect(oneDay.some((s) => s.move_in_allowed && !s.move_out_allowed)).toBe(true);
    // Some homes take no Sunday move-ins.
    const sundayOnly = homes.filter((h) => {
      const noMoveIn = h.calendar.filter((s) => s.open_for_occupancy && !s.move_in_allowed);
      return noMoveIn.length > 10 && noMoveIn.every((s) => new Date(`${s.start_date}T00:00:00Z`).getUTCDay() === 0);
    });
    expect(sundayOnly.length).toBeGreaterThan(0);
    // Some windows open on a day that forbids moving in.
    expect(homes.some((h) => openRuns(h.calendar).some((w) => !w.segments[0].move_in_allowed))).toBe(true);
  });

  it('has windows too short for their minimum stay, and windows that fit', () => {
    const runs = homes.flatMap((h) =>
      openRuns(h.calendar)
        .filter((w) => w.end !== null && w.start >= TODAY)
        .map((w) => ({ h, w })),
    );
    const tooShort = runs.filter(({ h, w }) => nightsBetween(w.start, w.end as string) < h.minimum_nightly_stay);
    expect(tooShort.length).toBeGreaterThan(50);
    expect(runs.length - tooShort.length).toBeGreaterThan(50);
    // Some fit the floor but not the stricter minimum their start date carries.
    const ruleAt = (h: HomeRecord, d: string) => h.minimum_stay_rules.find((r) => r.start_date <= d && d < r.end_date);
    expect(
      runs.some(({ h, w }) => {
        const nights = nightsBetween(w.start, w.end as string);
        const rule = ruleAt(h, w.start);
        return rule !== undefined && nights >= h.minimum_nightly_stay && nights < rule.minimum_nightly_stay;
      }),
    ).toBe(true);
  });

  it('holds about 1% of homes off the market from before today to the horizon (no known opening date)', () => {
    const offMarket = homes.filter((h) => !h.calendar.some((s) => s.open_for_occupancy && (s.end_date === null || s.end_date > TODAY)));
    expect(offMarket.length).toBeGreaterThan(0);
    expect(offMarket.length / homes.length).toBeLessThan(0.03);
    expect(offMarket.every((h) => h.special_offer === null || h.special_offer.end_date <= TODAY)).toBe(true);
  });

  it('leaves about 40% of calendars open-ended and the rest at the horizon', () => {
    expect(share(homes, (h) => h.calendar[h.calendar.length - 1].end_date === null)).toBeCloseTo(0.4, 1);
  });

  it('sets available_from on about 10% (1-60 days ahead) and must_vacate_by on about 10% (9-16 months ahead)', () => {
    const from = homes.filter((h) => h.available_from !== null).map((h) => nightsBetween(TODAY, h.available_from as string));
    expect(from.length / homes.length).toBeCloseTo(0.1, 1);
    expect(Math.min(...from) >= 1 && Math.max(...from) <= 60).toBe(true);
    const vacate = homes.filter((h) => h.must_vacate_by !== null).map((h) => nightsBetween(TODAY, h.must_vacate_by as string));
    expect(vacate.length / homes.length).toBeCloseTo(0.1, 1);
    expect(Math.min(...vacate) >= 270 && Math.max(...vacate) <= 490).toBe(true);
    // A 365-night Flex commitment from today can run past the lease end.
    expect(
      homes.some((h) => h.must_vacate_by !== null && h.flex_tiers.some((t) => t.committed_nights === 365) && nightsBetween(TODAY, h.must_vacate_by) < 365),
    ).toBe(true);
  });

  it('unpublishes a few homes, and every home of a dormant city (which search then cannot return)', () => {
    expect(share(homes, (h) => !h.published)).toBeGreaterThan(0);
    expect(share(homes, (h) => !h.published)).toBeLessThan(0.05);
    const citiesWithPublished = new Set(homes.filter((h) => h.published).map((h) => h.city_slug));
    const cities = new Set(homes.map((h) => h.city_slug));
    expect([...cities].filter((c) => !citiesWithPublished.has(c))).toEqual([...DORMANT_CITY_SLUGS]);
  });
});

describe('pricing rules', () => {
  it('prices monthly rent within $2,200-$9,000 by market and bedrooms, nightly at about monthly/30 x 1.6', () => {
    const outside = homes.filter(
      (h) =>
        !(h.monthly_rate_cents >= 220_000 && h.monthly_rate_cents <= 900_000) ||
        Math.abs(h.nightly_rate_cents - (h.monthly_rate_cents / 30) * 1.6) > 100 ||
        h.monthly_rate_cents % 100 !== 0,
    );
    expect(outside.map((h) => [h._id, h.monthly_rate_cents, h.nightly_rate_cents])).toEqual([]);
    const avg = (market: string, beds: number) => {
      const xs = homes.filter((h) => h.market_slug === market && h.bedrooms === beds).map((h) => h.monthly_rate_cents);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(avg('new-york', 1)).toBeGreaterThan(avg('nashville', 1));
    expect(avg('new-york', 3)).toBeGreaterThan(avg('new-york', 1));
  });

  it('keeps fees in their ranges', () => {
    const outside = homes.filter(
      ({ fees }) =>
        !(fees.cleaning_fee_cents >= 7_500 && fees.cleaning_fee_cents <= 25_000) ||
        !(fees.monthly_service_fee_cents >= 5_000 && fees.monthly_service_fee_cents <= 15_000) ||
        !(fees.pet_fee_cents >= 10_000 && fees.pet_fee_cents <= 30_000) ||
        !(fees.monthly_pet_rent_cents >= 2_500 && fees.monthly_pet_rent_cents <= 7_500),
    );
    expect(outside.map((h) => [h._id, h.fees])).toEqual([]);
  });

  it('gives 0-2 seasonal discounts of 5-20% inside the calendar span', () => {
    const counts = new Set(homes.map((h) => h.seasonal_discounts.length));
    expect([...counts].sort()).toEqual([0, 1, 2]);
    for (const d of homes.flatMap((h) => h.seasonal_discounts)) {
      expect(d.percent >= 5 && d.percent <= 20).toBe(true);
      expect(d.start_date >= span.start && d.end_date <= span.end && d.start_date < d.end_date).toBe(true);
    }
  });

  it('varies length-of-stay tiers, rising with the threshold, and leaves some homes without', () => {
    expect(homes.some((h) => h.length_of_stay_discounts.length === 0)).toBe(true);
    expect(new Set(homes.map((h) => JSON.stringify(h.length_of_stay_discounts.map((d) => d.min_nights)))).size).toBeGreaterThan(3);
    for (const h of homes) {
      h.length_of_stay_discounts.slice(1).forEach((d, i) => {
        expect(d.min_nights).toBeGreaterThan(h.length_of_stay_discounts[i].min_nights);
        expect(d.percent).toBeGreaterThan(h.length_of_stay_discounts[i].percent);
      });
    }
  });

  it('carries an active vacancy-driven special offer on about 15% of homes, and a few expired ones', () => {
    const active = homes.filter((h) => h.special_offer !== null && h.special_offer.end_date > TODAY);
    expect(active.length / homes.length).toBeGreaterThan(0.1);
    expect(active.length / homes.length).toBeLessThan(0.2);
    for (const { special_offer: o } of active) {
      expect(o!.percent >= 5 && o!.percent <= 15).toBe(true);
      expect(nightsBetween(TODAY, o!.start_date)).toBeGreaterThanOrEqual(0);
      expect(nightsBetween(TODAY, o!.start_date)).toBeLessThanOrEqual(21);
    }
    expect(homes.some((h) => h.special_offer !== null && h.special_offer.end_date <= TODAY)).toBe(true);
  });

  it('makes about 70% of homes Flex-eligible with 180/270/365 tiers below the monthly rent; the rest opt out', () => {
    expect(share(homes, (h) => h.flex_eligible)).toBeCloseTo(0.7, 1);
    const wrong = homes.filter(
      (h) =>
        h.flex_eligible !== h.flex_tiers.length > 0 ||
        h.flex_tiers.some(
          (t) =>
            ![180, 270, 365].includes(t.committed_nights) ||
            t.monthly_rate_cents > h.monthly_rate_cents * 0.95 + 500 ||
            t.monthly_rate_cents < h.monthly_rate_cents * 0.85 - 500,
        ),
    );
    expect(wrong.map((h) => [h._id, h.flex_eligible, h.monthly_rate_cents, h.flex_tiers])).toEqual([]);
    const multi = homes.filter((h) => h.flex_tiers.length >= 2);
    const cheaperWithLength = (h: HomeRecord) => h.flex_tiers.slice(1).every((t, i) => t.monthly_rate_cents < h.flex_tiers[i].monthly_rate_cents);
    expect(share(multi, cheaperWithLength)).toBeGreaterThan(0.95);
    // A few longer tiers cost no less than the shorter one (docs/contract.md, get_flex_options_tool rule 3: the quote refuses such a tier).
    expect(multi.some((h) => !cheaperWithLength(h))).toBe(true);
  });
});
