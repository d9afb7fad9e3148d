/**
 * Rents, fees and discounts of a demo home, in integer cents. Monthly rent follows the market's
 * cost level and the bedroom count; nightly rent is the monthly rate per night with a
 * short-stay premium of 1.6x.
 */
import type { Fees, FlexTier, IsoDate, LengthOfStayDiscount, SeasonalDiscount, SpecialOffer } from '../../services/kernel/inventory/records';
import type { CalendarSpan } from './calendar';
import { addDays, daysBetween } from '../../services/kernel/engine/dates';
import { monthDay } from './dates';
import type { Rng } from './prng';

const MONTHLY_BASE_BY_BEDROOMS = [2500, 3100, 4000, 5100, 6300];
export const MONTHLY_RATE_BOUNDS = { min: 2200, max: 9000 } as const;
export const NIGHTLY_PREMIUM = 1.6;
export const FLEX_COMMITMENTS = [180, 270, 365] as const;
/**
 * Share of multi-tier Flex homes whose longest tier costs no less than the one before it: the
 * quote refuses that tier, and the building search matches only tiers the quote accepts
 * (docs/contract.md, get_flex_options_tool rule 3, search_properties_tool rule 2).
 */
export const FLEX_TIER_ANOMALY_SHARE = 0.02;

const dollars = (d: number) => Math.round(d) * 100;
const roundTo = (x: number, step: number) => Math.round(x / step) * step;

export function monthlyRateCents(rng: Rng, costLevel: number, priceLevel: number, bedrooms: number): number {
  const raw = MONTHLY_BASE_BY_BEDROOMS[bedrooms] * costLevel * priceLevel * rng.float(0.92, 1.08);
  const lo = MONTHLY_RATE_BOUNDS.min + rng.int(0, 300);
  const hi = MONTHLY_RATE_BOUNDS.max - rng.int(0, 400);
  return dollars(roundTo(Math.min(hi, Math.max(lo, raw)), 5));
}

export function nightlyRateCents(monthlyCents: number): number {
  return dollars((monthlyCents / 100 / 30) * NIGHTLY_PREMIUM);
}

export function homeFees(rng: Rng, bedrooms: number): Fees {
  return {
    cleaning_fee_cents: dollars(Math.min(250, roundTo(75 + bedrooms * 35 + rng.int(0, 50), 5))),
    monthly_service_fee_cents: dollars(roundTo(rng.int(50, 150), 5)),
    pet_fee_cents: dollars(roundTo(rng.int(100, 300), 25)),
    monthly_pet_rent_cents: dollars(roundTo(rng.int(25, 75), 5)),
  };
}

/** 0-2 seasonal discounts over named seasons inside the calendar span. */
export function seasonalDiscounts(rng: Rng, span: CalendarSpan): SeasonalDiscount[] {
  const count = rng.weighted([
    [0, 50],
    [1, 35],
    [2, 15],
  ]);
  if (count === 0) return [];
  const seasons: Array<[string, string, string]> = [];
  for (let y = Number(span.start.slice(0, 4)); y <= Number(span.end.slice(0, 4)); y++) {
    seasons.push([`${y}-01-06`, `${y}-03-01`, 'Winter savings'], [`${y}-04-01`, `${y}-05-15`, 'Spring special'], [`${y}-09-10`, `${y}-11-15`, 'Fall savings']);
  }
  const inside = seasons.filter(([s, e]) => s >= span.start && e <= span.end);
  return rng
    .sample(inside, count)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([start_date, end_date, label]) => ({ start_date, end_date, percent: rng.int(5, 20), label }));
}

/** Length-of-stay tiers, percentages rising with the threshold; none for about 15% of homes. */
export function lengthOfStayDiscounts(rng: Rng): LengthOfStayDiscount[] {
  const thresholds = rng.weighted<number[]>([
    [[], 15],
    [[7, 30, 90], 35],
    [[30, 90], 20],
    [[7, 28], 10],
    [[14, 60, 180], 10],
    [[30], 10],
  ]);
  let percent = 0;
  return thresholds.map((min_nights, i) => {
    percent += i === 0 ? rng.int(3, 6) : rng.int(2, 5);
    return { min_nights, percent };
  });
}

/**
 * Flex tiers (docs/contract.md, "get_flex_options_tool"): empty for homes that opt out (about 30%); otherwise a subset of
 * 180/270/365 nights at monthly rates 5-15% below the monthly rent, longer tiers cheaper.
 * `longTermOnly` homes (floor above 180 nights) always offer all three.
 */
export function flexTiers(rng: Rng, monthlyCents: number, longTermOnly = false): FlexTier[] {
  // A long-term-only home keeps all three tiers, the shortest of which its floor then drops.
  if (!longTermOnly && rng.chance(0.3)) return [];
  const nights = longTermOnly
    ? [180, 270, 365]
    : rng.weighted<number[]>([
        [[180, 270, 365], 50],
        [[180, 365], 15],
        [[270, 365], 10],
        [[180], 10],
        [[365], 10],
        [[180, 270], 5],
      ]);
  let discount = rng.int(5, 7);
  const tiers = nights.map((committed_nights, i) => {
    if (i > 0) discount += rng.int(2, 4) * (committed_nights === 365 && i === 1 ? 2 : 1);
    discount = Math.min(discount, 15);
    return { committed_nights, monthly_rate_cents: dollars(roundTo((monthlyCents / 100) * (1 - discount / 100), 5)) };
  });
  if (tiers.length >= 2 && rng.chance(FLEX_TIER_ANOMALY_SHARE)) {
    tiers[tiers.length - 1].monthly_rate_cents = tiers[tiers.length - 2].monthly_rate_cents;
  }
  return tiers;
}

/**
 * A vacancy-driven special offer (docs/contract.md, "Filters": deals_only): homes whose first move-in date is within
 * three weeks get one with probability `chance`; the offer window opens within the next weeks.
 * A few homes keep an offer that already ended, which is not "active".
 */
export function specialOffer(rng: Rng, today: IsoDate, firstMoveIn: IsoDate | null, chance: number): SpecialOffer | null {
  if (rng.chance(0.015)) {
    const end = addDays(today, -rng.int(1, 10));
    const percent = rng.int(5, 15);
    return { start_date: addDays(end, -rng.int(14, 40)), end_date: end, percent, label: `${percent}% off move-ins by ${monthDay(addDays(end, -1))}` };
  }
  if (firstMoveIn === null || daysBetween(today, firstMoveIn) > 21 || !rng.chance(chance)) return null;
  const start = addDays(today, Math.min(rng.int(0, 14), daysBetween(today, firstMoveIn)));
  const end = addDays(start, rng.int(14, 45));
  const percent = rng.int(5, 15);
  return { start_date: start, end_date: end, percent, label: `${percent}% off move-ins by ${monthDay(addDays(end, -1))}` };
}
