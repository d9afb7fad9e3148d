/** The Flex tiers an apartment accepts ("Flex options", "get_flex_options_tool"). */
import type { FlexTier } from '../inventory/records';
import type { PricingInputs } from './types';

type TierInputs = Pick<PricingInputs, 'flex_eligible' | 'flex_tiers' | 'minimum_nightly_stay'>;

/** "Limits": the minimum Flex commitment is 6+ months. */
export const MINIMUM_FLEX_COMMITTED_NIGHTS = 180;

/**
 * Tiers the apartment accepts, shortest first. Dropped: every tier when the apartment opts out;
 * tiers below the apartment's minimum ("Flex options"); tiers under the 6-month Flex minimum
 * ("Limits"); a longer tier that costs no less than a shorter accepted one, which the quote refuses
 * ("search_properties_tool": "a longer tier that costs no less than a shorter one ... the quote refuses it").
 */
export function offeredTiers(home: TierInputs): FlexTier[] {
  if (!home.flex_eligible) return [];
  const candidates = home.flex_tiers
    .filter((t) => t.committed_nights >= home.minimum_nightly_stay)
    .filter((t) => t.committed_nights >= MINIMUM_FLEX_COMMITTED_NIGHTS)
    .slice()
    .sort((a, b) => a.committed_nights - b.committed_nights || a.monthly_rate_cents - b.monthly_rate_cents);
  const offered: FlexTier[] = [];
  for (const tier of candidates) {
    const shorter = offered[offered.length - 1];
    if (shorter !== undefined && tier.monthly_rate_cents >= shorter.monthly_rate_cents) continue;
    offered.push({ committed_nights: tier.committed_nights, monthly_rate_cents: tier.monthly_rate_cents });
  }
  return offered;
}

/** The offered tier with exactly `committedNights`, or null when the apartment does not accept it. */
export function offeredTier(home: TierInputs, committedNights: number): FlexTier | null {
  return offeredTiers(home).find((t) => t.committed_nights === committedNights) ?? null;
}
