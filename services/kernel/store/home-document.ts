/**
 * The Elasticsearch document of a home: what the indexer writes (indexer/document.ts builds it) and
 * what the search tools read. Every field is mapped in mappings/homes.json (a test checks it).
 */

import type { CompactWindow } from '../engine/overview-windows';
import type { PricingInputs } from '../engine/types';
import type { KeyRange } from './minimum-keys';
import type { StaySpan } from './stay-spans';

/**
 * A bookable window that can host a stay, in the availability overview's compact keys (docs/contract.md,
 * "availability_overview_tool"): stored for that tool only, unindexed, so its page is read as it is sent.
 * s start, e end (absent: open-ended), n nights (absent: open-ended), mi/mo move-in at start /
 * move-out at end, ms the window's minimum when stricter than the home's floor.
 */
/** A window of the availability overview, as the engine writes it (kernel/engine/overview-windows.ts). */
export type WindowDocument = CompactWindow;

/**
 * A span of dates as day numbers (days since 1970-01-01, kernel/engine/dates.ts `toDayNumber`), as
 * Elasticsearch's `integer_range` field takes it: `[gte, lt)`, no `lt` when open-ended. Day numbers,
 * not ISO dates: Elasticsearch parses an integer in a fraction of what a date costs it, and the
 * indexer works in day numbers anyway (docs/search-index.md, "A flat index").
 */
export interface DayRangeValue {
  gte: number;
  lt?: number;
}

/** One offered Flex tier: the move-in dates it can be held from, and its exact display price. */
export interface FlexStayDocument {
  committed_nights: number;
  move_in: DayRangeValue[];
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
  /** Availability of fixed stays as flat range fields of day numbers (docs/search-index.md, "A flat index"). Dates a stay may move in on. */
  move_ins: DayRangeValue[];
  /** The minimum stay of each move-in date, as keys (./minimum-keys.ts). */
  minimum_keys: KeyRange[];
  /** The bookable windows: a stay's nights must lie inside one. */
  open_windows: DayRangeValue[];
  /** Dates a fixed stay may move out on. */
  move_outs: DayRangeValue[];
  /** The bookable (move-in, move-out) pairs as rectangles, nested: a window of move-in dates in one query (./stay-spans.ts). */
  stay_spans: StaySpan[];
  /** The same spans as a binary doc value, read with a window's hits (./stay-spans.ts encodeSpans; query-only). */
  span_card: string;
  /** Move-in dates from which some fixed stay fits (the apartment read's "a stay can start on start_date"). */
  fixed_move_ins: DayRangeValue[];
  /** Lower and upper bounds of a fixed stay's display price, per cell of move-in month and stay lengths (kernel/store/price-cells.ts; query-only). */
  price_lo: Record<string, number>;
  price_hi: Record<string, number>;
  flex_stays: FlexStayDocument[];
  /** The engine's pricing inputs, stored unindexed: a search prices its results with the same functions as the quote. */
  pricing: PricingInputs;
  hero_photo_id: string | null;
  hero_photo_source: 'unit' | 'property' | null;
  created_at: string;
  updated_at: string;
  indexed_for: string;
  /** The hit of a search, whole, as a doc value (./home-card.ts; query-only). */
  card: string;
  /** The texts a word search reads, analysed: folded words and stems by tier (../text/home-texts.ts; query-only). */
  text: Record<string, { words?: string[]; stems?: string[] }>;
  /** The same texts as written, each with its field, which an answer's `matched` marks: a binary doc value, not indexed (../text/home-texts.ts, encodeMatchCard). */
  match_card: string;
}
