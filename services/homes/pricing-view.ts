/** The price fields a home shows for a stay (or, undated, for the engine's reference stay). */
import type { HomeRecord, IsoDate } from '../kernel/inventory/records';
import { displayPrice, referenceStay } from '../kernel/engine/pricing';
import { earliestAvailableDate } from '../kernel/engine/availability';
import type { DisplayPrice, StayCheck, StayRequest } from '../kernel/engine/types';

/** Dated and bookable: that stay's price; otherwise the reference stay's, as an undated search shows. */
export function priceForView(home: HomeRecord, stay: StayRequest | null, today: IsoDate): DisplayPrice {
  return displayPrice(home, stay ?? referenceStay(home, today));
}

/** Whether any stay that meets the apartment's rules can start on `start` (a start date alone). */
export function checkStartOnly(home: HomeRecord, start: IsoDate, today: IsoDate): StayCheck {
  if (start < today) return { available: false, unavailable_reason: `The move-in date ${start} is in the past.` };
  if (earliestAvailableDate(home, start) === start) return { available: true };
  const next = earliestAvailableDate(home, today);
  return {
    available: false,
    unavailable_reason:
      `No stay that meets this apartment's rules can start on ${start}.` +
      (next ? ` The earliest possible move-in on or after today is ${next}.` : ' It has no open dates in its calendar.'),
  };
}
