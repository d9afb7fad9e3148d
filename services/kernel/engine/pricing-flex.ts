/**
 * Price of a Flex stay (start + committed nights, end indefinite): the tier's monthly rate is the
 * Flex price, so no seasonal, length-of-stay or special-offer discount applies, and total_discount
 * ("Quote": the sum of seasonal and length-of-stay discounts applied) is always 0. The model is
 * written out with a worked example in docs/pricing.md.
 */
import type { FlexTier } from '../inventory/records';
import { offeredTier } from './flex';
import { NIGHTS_PER_MONTH, displayFields, flexPriceLabel, flexTermLabel, roundDiv, toDollars } from './labels';
import type { ChargeSchedule, DisplayPrice, Pets, PricingInputs, QuotePricing, StayRequest } from './types';

type FlexStay = Extract<StayRequest, { kind: 'flex' }>;

interface FlexCosting {
  tier: FlexTier;
  /** Each full 30-night statement: tier rent + service fee + pet rent. */
  monthlyCents: number;
  /** One-time fees: the cleaning fee (charged at move-out) and the pet fees (charged at checkout). */
  oneTimeCents: number;
  checkoutCents: number;
  deferredCents: number;
}

/** "get_quote_tool": an unoffered tier is rejected, not priced; callers check the tier first. */
function tierOf(home: PricingInputs, stay: FlexStay): FlexTier {
  const tier = offeredTier(home, stay.committed_nights);
  if (tier === null) throw new Error(`Home ${home.slug} does not offer a Flex commitment of ${stay.committed_nights} nights`);
  return tier;
}

function costFlexStay(home: PricingInputs, stay: FlexStay, pets: Pets): FlexCosting {
  const tier = tierOf(home, stay);
  const petCount = pets.cats + pets.dogs;
  const recurringFees = home.fees.monthly_service_fee_cents + home.fees.monthly_pet_rent_cents * petCount;
  const petFees = home.fees.pet_fee_cents * petCount;
  // "Quote" rules: the first month is checkout plus deferred; half the first month's rent is deferred.
  const rentAtCheckout = Math.floor(tier.monthly_rate_cents / 2);
  return {
    tier,
    monthlyCents: tier.monthly_rate_cents + recurringFees,
    oneTimeCents: home.fees.cleaning_fee_cents + petFees,
    checkoutCents: rentAtCheckout + recurringFees + petFees,
    deferredCents: tier.monthly_rate_cents - rentAtCheckout,
  };
}

/** "Quote" rules: a one-time fee is included in the display price spread over the committed term. */
function monthlyDisplay(monthlyCents: number, oneTimeCents: number, committedNights: number): number {
  return roundDiv(monthlyCents * committedNights + oneTimeCents * NIGHTS_PER_MONTH, committedNights * 100);
}

function flexDisplay(home: PricingInputs, stay: FlexStay, costing: FlexCosting): DisplayPrice {
  const nights = stay.committed_nights;
  // Without the tier's discount the base monthly rate applies; never below the tier rate itself.
  const undiscountedMonthly = costing.monthlyCents - costing.tier.monthly_rate_cents + Math.max(home.monthly_rate_cents, costing.tier.monthly_rate_cents);
  return displayFields(
    monthlyDisplay(costing.monthlyCents, costing.oneTimeCents, nights),
    monthlyDisplay(undiscountedMonthly, costing.oneTimeCents, nights),
    flexPriceLabel(nights),
    true,
  );
}

export function displayFlexStay(home: PricingInputs, stay: FlexStay, pets: Pets): DisplayPrice {
  return flexDisplay(home, stay, costFlexStay(home, stay, pets));
}

export function priceFlexStay(home: PricingInputs, stay: FlexStay, pets: Pets): QuotePricing {
  const costing = costFlexStay(home, stay, pets);
  // "Quote": total_cost is omitted for Flex, there is no final month, and empty sections are omitted.
  const schedule: ChargeSchedule = {};
  if (costing.checkoutCents !== 0) schedule.checkout = { total: toDollars(costing.checkoutCents) };
  if (costing.deferredCents !== 0) schedule.deferred = { total: toDollars(costing.deferredCents) };
  if (costing.monthlyCents !== 0) schedule.monthly = { total: toDollars(costing.monthlyCents) };
  const pricing: QuotePricing = {
    ...flexDisplay(home, stay, costing),
    term_duration_label: flexTermLabel(stay.committed_nights),
    charge_schedule: schedule,
    // "Quote": total_discount sums seasonal and length-of-stay discounts; Flex has neither. The tier's
    // lower rate is the Flex price itself, not a discount in this field.
    total_discount: 0,
    currency: 'USD',
  };
  if (schedule.monthly !== undefined) pricing.monthly_total = schedule.monthly.total;
  return pricing;
}
