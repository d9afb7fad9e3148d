/**
 * Price of a fixed stay (start + end): per-night rent with seasonal, length-of-stay and special-offer
 * discounts, prorated fees, 30-night statements and the charge schedule. The model is written out
 * with a worked example in docs/pricing.md.
 *
 * "Quote": total_discount is the sum of the seasonal and length-of-stay discounts only. The special
 * offer lowers the rent (statements, total cost, display price) but is not counted in total_discount.
 *
 * Exact arithmetic: a night's rent is kept in units of 1/(30 × 100³) cent — the rent is quoted per
 * 30 nights and three percentages multiply it — so with whole-number percents every sum is an exact
 * integer and a statement rounds exactly once (Math.round, half up).
 */
import { toDayNumber } from './dates';
import { NIGHTS_PER_MONTH, displayFields, fixedPriceLabel, fixedTermLabel, isMonthlyStay, roundDiv, toDollars } from './labels';
import type { ChargeSchedule, DisplayPrice, Pets, PricingInputs, QuotePricing, StayRequest } from './types';

type FixedStay = Extract<StayRequest, { kind: 'fixed' }>;

const PERCENT_SCALE = 100 * 100 * 100;
const UNITS_PER_CENT = NIGHTS_PER_MONTH * PERCENT_SCALE;

interface FixedCosting {
  nights: number;
  /** Cents of each 30-night statement; statement 0 carries the one-time fees. */
  statements: number[];
  /** Cents taken off by the seasonal and length-of-stay discounts over the stay (not the offer), rounded once. */
  discountCents: number;
}

/** Length-of-stay discount: the tier with the largest min_nights the stay reaches. */
export function lengthOfStayPercent(home: PricingInputs, nights: number): number {
  let best: { min: number; percent: number } | null = null;
  for (const tier of home.length_of_stay_discounts) {
    if (tier.min_nights > nights) continue;
    if (best === null || tier.min_nights > best.min || (tier.min_nights === best.min && tier.percent > best.percent)) {
      best = { min: tier.min_nights, percent: tier.percent };
    }
  }
  return best === null ? 0 : best.percent;
}

/** Special offer: applies when the move-in date lies in the offer's `[start_date, end_date)`. */
export function specialOfferPercent(home: PricingInputs, startDate: string): number {
  const offer = home.special_offer;
  return offer !== null && offer.start_date <= startDate && startDate < offer.end_date ? offer.percent : 0;
}

/**
 * Seasonal discount of each night; overlapping periods give the largest percent, not a sum. Null when
 * no period meets the stay (every night 0): most stays, priced without a per-night array.
 */
function seasonalPercents(home: PricingInputs, start: number, nights: number): number[] | null {
  let percents: number[] | null = null;
  for (const period of home.seasonal_discounts) {
    const from = Math.max(toDayNumber(period.start_date) - start, 0);
    const to = Math.min(toDayNumber(period.end_date) - start, nights);
    if (from >= to) continue;
    percents ??= new Array<number>(nights).fill(0);
    for (let i = from; i < to; i++) percents[i] = Math.max(percents[i], period.percent);
  }
  return percents;
}

function costFixedStay(home: PricingInputs, stay: FixedStay, pets: Pets, withDiscounts: boolean): FixedCosting {
  const start = toDayNumber(stay.start_date);
  const nights = toDayNumber(stay.end_date) - start;
  if (nights < 1) throw new Error(`A fixed stay needs at least one night: ${stay.start_date} to ${stay.end_date}`);
  const petCount = pets.cats + pets.dogs;
  // Under 30 nights the nightly rate applies, from 30 nights the monthly rate (both per 30 nights here).
  const ratePer30 = isMonthlyStay(nights) ? home.monthly_rate_cents : home.nightly_rate_cents * NIGHTS_PER_MONTH;
  const seasonal = withDiscounts ? seasonalPercents(home, start, nights) : null;
  const losFactor = withDiscounts ? 100 - lengthOfStayPercent(home, nights) : 100;
  const offerFactor = withDiscounts ? 100 - specialOfferPercent(home, stay.start_date) : 100;
  const feeUnitsPerNight = (home.fees.monthly_service_fee_cents + home.fees.monthly_pet_rent_cents * petCount) * PERCENT_SCALE;
  const oneTimeCents = home.fees.cleaning_fee_cents + home.fees.pet_fee_cents * petCount;
  const statements: number[] = [];
  let discountUnits = 0;
  for (let first = 0; first < nights; first += NIGHTS_PER_MONTH) {
    const last = Math.min(first + NIGHTS_PER_MONTH, nights);
    // Each night's rent is ratePer30 × (100 − its seasonal percent) × the length-of-stay factor (seasonal, then
    // length of stay, then the offer, each off the rent left by the one before): a statement's nights sum
    // exactly as their percents' complements do.
    let kept = 100 * (last - first);
    if (seasonal !== null) for (let i = first; i < last; i++) kept -= seasonal[i];
    const rentBeforeOffer = ratePer30 * kept * losFactor;
    // "Quote": total_discount counts the seasonal and length-of-stay discounts, not the offer.
    discountUnits += ratePer30 * PERCENT_SCALE * (last - first) - rentBeforeOffer * 100;
    const units = rentBeforeOffer * offerFactor + feeUnitsPerNight * (last - first);
    statements.push(roundDiv(units, UNITS_PER_CENT) + (first === 0 ? oneTimeCents : 0));
  }
  return { nights, statements, discountCents: roundDiv(discountUnits, UNITS_PER_CENT) };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** All-in display price in whole dollars: per night, or per 30 nights from a 30-night stay. */
function displayAmount(totalCents: number, nights: number): number {
  const perUnit = isMonthlyStay(nights) ? NIGHTS_PER_MONTH : 1;
  return roundDiv(totalCents * perUnit, nights * 100);
}

/** "Quote": checkout, first recurring statement, prorated last statement; empty sections omitted. */
function chargeSchedule(statements: number[]): ChargeSchedule {
  const schedule: ChargeSchedule = {};
  const count = statements.length;
  if (statements[0] !== 0) schedule.checkout = { total: toDollars(statements[0]) };
  if (count >= 3 && statements[1] !== 0) schedule.monthly = { total: toDollars(statements[1]) };
  if (count >= 2 && statements[count - 1] !== 0) schedule.final_month = { total: toDollars(statements[count - 1]) };
  schedule.total_cost = toDollars(sum(statements));
  return schedule;
}

/** Cents of each 30-night statement of a fixed stay (statement k = nights [30k, 30k + 30)); throws for Flex. */
export function fixedStatements(home: PricingInputs, stay: StayRequest, pets: Pets): number[] {
  if (stay.kind !== 'fixed') throw new Error('Statements are defined for fixed stays only; a Flex stay has no end');
  return costFixedStay(home, stay, pets, true).statements;
}

function fixedDisplay(discounted: FixedCosting, undiscounted: FixedCosting): DisplayPrice {
  const nights = discounted.nights;
  return displayFields(
    displayAmount(sum(discounted.statements), nights),
    displayAmount(sum(undiscounted.statements), nights),
    fixedPriceLabel(nights),
    isMonthlyStay(nights),
  );
}

/** The display price with discounts alone (display_price_with_discount): what choosing among a window's starts compares. */
export function fixedDisplayAmount(home: PricingInputs, stay: FixedStay, pets: Pets): number {
  const discounted = costFixedStay(home, stay, pets, true);
  return displayAmount(sum(discounted.statements), discounted.nights);
}

export function displayFixedStay(home: PricingInputs, stay: FixedStay, pets: Pets): DisplayPrice {
  return fixedDisplay(costFixedStay(home, stay, pets, true), costFixedStay(home, stay, pets, false));
}

export function priceFixedStay(home: PricingInputs, stay: FixedStay, pets: Pets): QuotePricing {
  const discounted = costFixedStay(home, stay, pets, true);
  const { nights, statements, discountCents } = discounted;
  const schedule = chargeSchedule(statements);
  const pricing: QuotePricing = {
    ...fixedDisplay(discounted, costFixedStay(home, stay, pets, false)),
    term_duration_label: fixedTermLabel(nights),
    charge_schedule: schedule,
    total_discount: toDollars(discountCents),
    currency: 'USD',
  };
  if (schedule.monthly !== undefined) pricing.monthly_total = schedule.monthly.total;
  return pricing;
}
