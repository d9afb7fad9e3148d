/**
 * The canonical inventory as MongoDB holds it. Every other shape (ES documents, API
 * responses, quotes) is derived from these records by pure functions.
 *
 * Conventions: dates are ISO calendar dates `YYYY-MM-DD` (no time zone: a stay is a run of
 * nights); money is integer US cents; a date range is half-open `[start_date, end_date)`.
 */

/** A calendar date, `YYYY-MM-DD`. */
export type IsoDate = string;

export interface CityRecord {
  slug: string;
  name: string;
  /** State code; may differ from the market's state when a metro spans state lines. */
  state: string;
  latitude: number;
  longitude: number;
}

export interface NeighborhoodRecord {
  id: string;
  slug: string;
  name: string;
  city_slug: string;
  description: string;
}

export interface MarketRecord {
  _id: string; // = slug
  slug: string;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  cities: CityRecord[];
  neighborhoods: NeighborhoodRecord[];
  updated_at: Date;
}

export interface Rating {
  average: number; // 1..5, one decimal
  count: number;
}

/** Walk/transit/bike scores; a score and its description are absent until computed. */
export interface LocationScores {
  walk_score?: number;
  walk_score_description?: string;
  transit_score?: number;
  transit_score_description?: string;
  bike_score?: number;
  bike_score_description?: string;
}

/** A photo the service itself serves: `/media/<id>.jpg` and the 800 px `/media/<id>-800.jpg`. */
export interface PhotoRef {
  id: string;
  caption?: string;
}

export interface PropertyRecord {
  _id: string; // stable building id, e.g. "prop-000123"
  slug: string;
  name: string;
  market_slug: string;
  city_slug: string;
  neighborhood_id: string;
  address: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  /** Building-level amenity names, free text, shown uncapped. */
  amenities: string[];
  /** Building features the shared filters match. */
  has_pool: boolean;
  has_gym: boolean;
  has_elevator: boolean;
  description: string;
  photos: PhotoRef[];
  /** Guest survey rating of the building; null when unrated. */
  rating: Rating | null;
  scores: LocationScores;
  /** Whether the building allows cats / dogs at all (a home may be stricter). */
  allows_cats: boolean;
  allows_dogs: boolean;
  created_at: Date;
  updated_at: Date;
}

export type LaundryType = 'In Unit' | 'On-Site Facility' | null;

/**
 * One segment of the booking calendar, half-open `[start_date, end_date)`; `end_date` null means
 * open-ended. Segments are sorted, contiguous and do not overlap.
 * - `open_for_occupancy`: nights in the segment can be occupied by a new stay.
 * - `move_in_allowed`: a stay may start on a date inside the segment.
 * - `move_out_allowed`: a stay whose last night lies inside the segment may end after it.
 * - `unbookable_reason`: why a closed segment is closed (`reserved`, `owner_hold`, `maintenance`, `turnover`).
 */
export interface BookingRange {
  start_date: IsoDate;
  end_date: IsoDate | null;
  open_for_occupancy: boolean;
  move_in_allowed: boolean;
  move_out_allowed: boolean;
  unbookable_reason: string | null;
}

/** A stricter minimum stay that binds stays whose move-in date lies in `[start_date, end_date)`. */
export interface MinimumStayRule {
  start_date: IsoDate;
  end_date: IsoDate;
  minimum_nightly_stay: number;
}

/** A seasonal discount: a percentage off the rent of each night that falls in `[start_date, end_date)`. */
export interface SeasonalDiscount {
  start_date: IsoDate;
  end_date: IsoDate;
  percent: number;
  label: string;
}

/** A length-of-stay discount: a percentage off all rent when the stay has at least `min_nights`. */
export interface LengthOfStayDiscount {
  min_nights: number;
  percent: number;
}

/**
 * A vacancy-driven special offer, generated automatically: a percentage off all rent for stays
 * that move in inside `[start_date, end_date)`. It is "active" while today is before `end_date`.
 */
export interface SpecialOffer {
  start_date: IsoDate;
  end_date: IsoDate;
  percent: number;
  label: string;
}

/** A Flex commitment tier: the guest commits to `committed_nights` at a lower monthly rate. */
export interface FlexTier {
  committed_nights: number;
  monthly_rate_cents: number;
}

export interface Fees {
  /** One-time cleaning fee; on a fixed stay charged at checkout, on Flex charged at move-out. */
  cleaning_fee_cents: number;
  /** Service fee per 30 nights (prorated by night on a partial statement). */
  monthly_service_fee_cents: number;
  /** One-time fee per pet, charged at checkout. */
  pet_fee_cents: number;
  /** Pet rent per pet per 30 nights (prorated by night). */
  monthly_pet_rent_cents: number;
}

export interface HomeRecord {
  _id: string; // stable apartment id, e.g. "home-000123"
  slug: string;
  name: string;
  property_id: string;
  market_slug: string;
  city_slug: string;
  neighborhood_id: string;
  unit_number: string;
  floor: number;
  bedrooms: number; // 0 = studio
  bathrooms: number;
  sqft: number;
  /** Unit-level amenity names, free text. */
  amenities: string[];
  has_parking: boolean;
  cats_allowed: boolean;
  dogs_allowed: boolean;
  laundry_type: LaundryType;
  air_conditioned: boolean;
  has_balcony: boolean;
  self_check_in: boolean;
  /** Unit photos only; building photos come from the property and follow them. */
  photos: PhotoRef[];

  /** Nightly rent used for stays shorter than 30 nights. */
  nightly_rate_cents: number;
  /** Monthly rent (per 30 nights) used for stays of 30 nights or more; the "base monthly rate". */
  monthly_rate_cents: number;
  fees: Fees;
  seasonal_discounts: SeasonalDiscount[];
  length_of_stay_discounts: LengthOfStayDiscount[];
  special_offer: SpecialOffer | null;
  /** Whether the home accepts Flex stays; false = opted out. */
  flex_eligible: boolean;
  flex_tiers: FlexTier[];

  /** Minimum-stay floor of the apartment. */
  minimum_nightly_stay: number;
  minimum_stay_rules: MinimumStayRule[];
  calendar: BookingRange[];
  /** No stay may start before this date; null = no cutoff. */
  available_from: IsoDate | null;
  /** Every stay must end on or before this date (lease end); null = none. */
  must_vacate_by: IsoDate | null;

  published: boolean;
  created_at: Date;
  updated_at: Date;
  /** Soft delete: the indexer removes deleted homes from the index. */
  deleted_at: Date | null;
}

export interface BookingIntentRecord {
  _id: string; // intent id, e.g. "bi_..."
  email: string; // lower-cased, unique
  phone: string | null;
  name: string | null;
  home_slug: string | null;
  start_date: IsoDate | null;
  end_date: IsoDate | 'indefinite' | null;
  committed_nights: number | null;
  guest_consent: true;
  created_at: Date;
  updated_at: Date;
  /** When contact details were last saved; the 30-day no-overwrite window runs from here. */
  contact_saved_at: Date;
}
