/**
 * The Elasticsearch document of a home: what the indexer writes (indexer/document.ts builds it) and
 * what the search tools read. Every field is mapped in mappings/homes.json (a test checks it).
 */

import type { CompactWindow } from '../engine/overview-windows';
import type { PricingInputs } from '../engine/types';

/**
 * A bookable window that can host a stay, in the availability overview's compact keys (spec:
 * "Availability overview"): stored for that tool only, unindexed, so its page is read as it is sent.
 * s start, e end (absent: open-ended), n nights (absent: open-ended), mi/mo move-in at start /
 * move-out at end, ms the window's minimum when stricter than the home's floor.
 */
/** A window of the availability overview, as the engine writes it (kernel/engine/overview-windows.ts). */
export type WindowDocument = CompactWindow;

/** A date range as Elasticsearch's `date_range` field takes it: `[gte, lt)`, no `lt` when open-ended. */
export interface DateRangeValue {
  gte: string;
  lt?: string;
}

/**
 * The window end an open-ended window is indexed with, so "ends on or after D" is one range query
 * (an `exists` negation walks every nested document: it was most of a dated search's query time).
 */
export const OPEN_WINDOW_END = '9999-12-31';

/** Move-in dates of one bookable window sharing a minimum stay (services/kernel/engine/stay-starts.ts). */
export interface StayStartDocument {
  move_in: DateRangeValue[];
  /** The move-in dates a fixed stay fits from (a move-out date at least the minimum later exists). */
  fixed_move_in: DateRangeValue[];
  min_nights: number;
  /** No stay from these dates may run past it; OPEN_WINDOW_END when the window is open-ended. */
  window_end: string;
}

/** Bounds of the display price of any fixed stay of `nights` moving in on `move_in` (indexer/price-bands.ts). */
export interface PriceBandDocument {
  move_in: DateRangeValue[];
  nights: { gte: number; lte: number };
  lo: number;
  hi: number;
}

/** One offered Flex tier: the move-in dates it can be held from, and its exact display price. */
export interface FlexStayDocument {
  committed_nights: number;
  move_in: DateRangeValue[];
  price: number;
  price_without_discount: number;
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
  /** Windows that can host a stay ("windows shorter than their own minimum are omitted"), compact. */
  windows: WindowDocument[];
  /** Availability for any requested stay, answered by range queries (query-only: not in _source). */
  stay_starts: StayStartDocument[];
  /** Dates a fixed stay may move out on (query-only). */
  move_outs: DateRangeValue[];
  /** Display-price bounds of fixed stays (query-only). */
  price_bands: PriceBandDocument[];
  flex_stays: FlexStayDocument[];
  /** The engine's pricing inputs, stored unindexed: a search prices its results with the same functions as the quote. */
  pricing: PricingInputs;
  hero_photo_id: string | null;
  hero_photo_source: 'unit' | 'property' | null;
  created_at: string;
  updated_at: string;
  indexed_for: string;
}
