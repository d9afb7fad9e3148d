/**
 * One price per stay ("Quote" rules; docs/design.md, "The stay engine": pure, today a parameter):
 * search, apartment detail and quote all call these, so a home and a stay show the same figure
 * everywhere. Pricing depends on the stay only; whether the stay can be booked is `checkStay`'s question.
 */
import type { HomeRecord, IsoDate } from '../inventory/records';
import { earliestAvailableDate } from './availability';
import { addDays } from './dates';
import { NIGHTS_PER_MONTH } from './labels';
import { displayFixedStay, fixedDisplayAmount, priceFixedStay } from './pricing-fixed';
import { displayFlexStay, priceFlexStay } from './pricing-flex';
import type { DisplayPrice, Pets, PricingInputs, QuotePricing, StayRequest } from './types';

export { fixedStatements } from './pricing-fixed';

const NO_PETS: Pets = { cats: 0, dogs: 0 };

/**
 * The quote's pricing of a stay with its pets. Throws a plain Error for a Flex tier the home does not
 * offer or a fixed stay without nights; callers check the request first.
 */
export function priceStay(home: PricingInputs, stay: StayRequest, pets: Pets): QuotePricing {
  return stay.kind === 'fixed' ? priceFixedStay(home, stay, pets) : priceFlexStay(home, stay, pets);
}

/** The display price of a stay without pets: the figure search results and the apartment read show. */
export function displayPrice(home: PricingInputs, stay: StayRequest): DisplayPrice {
  return stay.kind === 'fixed' ? displayFixedStay(home, stay, NO_PETS) : displayFlexStay(home, stay, NO_PETS);
}

/** displayPrice(home, stay).display_price_with_discount alone, without the figures beside it. */
export function displayAmountOf(home: PricingInputs, stay: StayRequest): number {
  return stay.kind === 'fixed' ? fixedDisplayAmount(home, stay, NO_PETS) : displayFlexStay(home, stay, NO_PETS).display_price_with_discount;
}

/** The stay an undated search prices: 30 nights from the earliest available date (today when none). */
export function referenceStay(home: HomeRecord, today: IsoDate): StayRequest {
  const start = earliestAvailableDate(home, today) ?? today;
  return { kind: 'fixed', start_date: start, end_date: addDays(start, NIGHTS_PER_MONTH) };
}
