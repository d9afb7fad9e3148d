/** The price fields a home shows for a stay (or, undated, for the engine's reference stay). */
import type { HomeRecord, IsoDate } from '../kernel/inventory/records';
import { displayPrice, referenceStay } from '../kernel/engine/pricing';
import type { DisplayPrice, StayRequest } from '../kernel/engine/types';

/** Dated and bookable: that stay's price; otherwise the reference stay's, as an undated search shows. */
export function priceForView(home: HomeRecord, stay: StayRequest | null, today: IsoDate): DisplayPrice {
  return displayPrice(home, stay ?? referenceStay(home, today));
}
