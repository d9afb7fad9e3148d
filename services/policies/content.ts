/**
 * Default answers of the policies FAQ (docs/contract.md, get_policies_faq_tool rule 1). Conservative on purpose: where a
 * number depends on the apartment, market or reservation, the answer points to the quote,
 * checkout or support instead of giving a figure. Seeded into MongoDB, where ops may edit them.
 */

export const POLICY_TOPICS = [
  'security_deposit',
  'pets',
  'parking',
  'cancellation_policy',
  'qualification_requirements',
  'landing_flex',
  'utilities_and_furnishing',
  'move_in_process',
] as const;

export type PolicyTopic = (typeof POLICY_TOPICS)[number];

export const DEFAULT_POLICIES: Record<PolicyTopic, string> = {
  security_deposit:
    'Whether a security deposit applies, and how much, depends on the apartment, the market and the reservation. ' +
    'Any deposit is shown at checkout before you pay; this service does not quote a deposit figure.',
  pets:
    'Each apartment states whether cats and/or dogs are allowed (see pet_policy on the apartment). At most 2 pets per ' +
    'stay, cats and dogs combined. Pet fees and pet rent depend on the apartment: pass cats/dogs to the quote to see them ' +
    'priced. Service animals are handled by support, not by pet rules.',
  parking:
    'Parking depends on the building: has_parking on an apartment says whether parking is available there. Parking ' +
    'selections and their prices are made at checkout on the website and are not included in quotes from this service.',
  cancellation_policy:
    'Cancellation terms depend on the reservation (its length, its dates and whether it is a Flex stay) and are shown ' +
    'at checkout before you confirm. For a reservation you already made, contact support for its exact terms.',
  qualification_requirements:
    'To reserve, a guest creates an account on the website and adds a payment method; an identity check may be ' +
    'required. Any further requirements depend on the market and the stay and are stated at checkout.',
  landing_flex:
    'Flex is an open-ended stay with no fixed move-out date. You commit to a minimum number of nights (6 months or ' +
    'more) at a lower monthly rate, and the rate carries over if you move to another apartment of the service. It is a ' +
    'booking option on the same apartments: check get_flex_options_tool for the tiers an apartment accepts, and quote ' +
    'with end_date "indefinite" and committed_nights for the price.',
  utilities_and_furnishing:
    'Apartments are furnished. Which utilities and services are included depends on the apartment; the all-in display ' +
    'price includes every fee except taxes. See the apartment amenities, or ask support about a specific apartment.',
  move_in_process:
    'After checkout on the website you receive arrival instructions before your move-in date. Some apartments offer ' +
    'self check-in (self_check_in); move-in is possible only on dates the calendar allows (can_move_in_at_start).',
};
