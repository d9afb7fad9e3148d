/**
 * The Elasticsearch document of a home: what the indexer writes (indexer/document.ts builds it) and
 * what the search tools read. Every field is mapped in mappings/homes.json (a test checks it).
 */

export interface WindowDocument {
  start_date: string;
  end_date: string | null;
  open_ended: boolean;
  nights: number | null;
  can_move_in_at_start: boolean;
  can_move_out_at_end: boolean;
  minimum_nightly_stay: number;
  fits_minimum_stay: boolean;
}

export interface HomeDocument {
  home_id: string;
  slug: string;
  name: string;
  unit_number: string;
  property_id: string;
  property_slug: string;
  property_name: string;
  market_slug: string;
  city_slug: string;
  city_name: string;
  state: string;
  neighborhood_id: string;
  neighborhood_slug: string | null;
  location: { lat: number; lon: number };
  bedrooms: number;
  bathrooms: number;
  sqft: number;
  floor: number;
  first_floor_unit: boolean;
  has_parking: boolean;
  cats_allowed: boolean;
  dogs_allowed: boolean;
  pets_allowed: boolean;
  laundry_type: string | null;
  in_unit_laundry: boolean;
  air_conditioned: boolean;
  has_balcony: boolean;
  self_check_in: boolean;
  has_pool: boolean;
  has_gym: boolean;
  has_elevator: boolean;
  amenities: string[];
  rating_average: number | null;
  rating_count: number;
  /** Base monthly rate in whole dollars, before discounts (market averages, overview price filter). */
  monthly_rate: number;
  nightly_rate: number;
  /** All-in display price of the stay an undated search prices (the engine's reference stay). */
  reference_price: { start_date: string; end_date: string; with_discount: number; without_discount: number };
  has_active_offer: boolean;
  offer_percent: number | null;
  offer_end_date: string | null;
  flex_eligible: boolean;
  flex_tiers: number[];
  minimum_nightly_stay: number;
  earliest_available_date: string | null;
  /** Whether search can return the home: published and at least one stay can start. */
  bookable: boolean;
  available_from: string | null;
  must_vacate_by: string | null;
  windows: WindowDocument[];
  hero_photo_id: string | null;
  hero_photo_source: 'unit' | 'property' | null;
  created_at: string;
  updated_at: string;
  indexed_for: string;
}
