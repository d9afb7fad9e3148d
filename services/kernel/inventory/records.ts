/**
 * The canonical inventory as MongoDB holds it, typed from the record schemas (schemas.ts): a record
 * is defined once. Every other shape (ES documents, API responses, quotes) is derived from these
 * records by pure functions.
 *
 * Conventions: dates are ISO calendar dates `YYYY-MM-DD` (no time zone: a stay is a run of nights);
 * money is integer US cents; a date range is half-open `[start_date, end_date)`.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { homeRecordSchema, marketRecordSchema, propertyRecordSchema } from './schemas';

/** A calendar date, `YYYY-MM-DD`. */
export type IsoDate = string;

/** A market (metro); `_id` is its slug. Written whole by ops, so it carries `updated_at` only. */
export type MarketRecord = FromSchema<typeof marketRecordSchema> & { updated_at: Date };

/** A building, e.g. `_id` "prop-000123". */
export type PropertyRecord = FromSchema<typeof propertyRecordSchema> & { created_at: Date; updated_at: Date };
/** Guest survey rating of a building (average 1..5, one decimal). */
export type Rating = NonNullable<PropertyRecord['rating']>;
/** Walk/transit/bike scores; a score and its description are absent until computed. */
export type LocationScores = PropertyRecord['scores'];
/** A photo the service itself serves: `/media/<id>.jpg` and the 800 px `/media/<id>-800.jpg`. */
export type PhotoRef = PropertyRecord['photos'][number];

/** An apartment, e.g. `_id` "home-000123"; `deleted_at` is a soft delete. */
export type HomeRecord = FromSchema<typeof homeRecordSchema> & { created_at: Date; updated_at: Date; deleted_at: Date | null };
export type LaundryType = HomeRecord['laundry_type'];
/**
 * One segment of the booking calendar, half-open; `end_date` null means open-ended. Segments are
 * sorted, contiguous and do not overlap. `open_for_occupancy`: nights in it can be occupied by a new
 * stay; `move_in_allowed`: a stay may start inside it; `move_out_allowed`: a stay whose last night
 * lies inside it may end after it; `unbookable_reason`: why a closed segment is closed.
 */
export type BookingRange = HomeRecord['calendar'][number];
export type MinimumStayRule = HomeRecord['minimum_stay_rules'][number];
export type SeasonalDiscount = HomeRecord['seasonal_discounts'][number];
/** A percentage off all rent when the stay has at least `min_nights`. */
export type LengthOfStayDiscount = HomeRecord['length_of_stay_discounts'][number];
export type SpecialOffer = NonNullable<HomeRecord['special_offer']>;
/** A Flex commitment tier: the guest commits to `committed_nights` at a lower monthly rate. */
export type FlexTier = HomeRecord['flex_tiers'][number];
/**
 * Fees in cents: cleaning (one-time; at checkout on a fixed stay, at move-out on Flex), service per
 * 30 nights (prorated by night), pet fee per pet (one-time, at checkout), pet rent per pet per 30 nights.
 */
export type Fees = HomeRecord['fees'];

/** How the guest's agreement reached us: their own answer to the client's form, or the agent's guest_consent. */
export interface IntentConsent {
  /** The exact words the guest was shown (the form's message), or the statement the agent had to relay. */
  wording: string;
  /** A short hash of the wording's fixed text: it changes whenever that text changes. */
  wording_version: string;
  via: 'elicitation' | 'guest_consent';
  /** The door the call came through (the tools' RequestTransport). */
  transport: 'http' | 'mcp-2025' | 'mcp-2026';
}

/** One call's intent, appended to its email's record; the record keeps the latest BOOKING_INTENT_CALLS_KEPT. */
export interface IntentCall {
  at: Date;
  /** The phone (E.164) and name this call sent, kept with the call whatever the record's own details (rule 3 leaves those alone). */
  phone: string | null;
  name: string | null;
  home_slug: string | null;
  start_date: IsoDate | null;
  end_date: IsoDate | 'indefinite' | null;
  committed_nights: number | null;
  consent: IntentConsent;
}

export interface BookingIntentRecord {
  _id: string; // intent id, e.g. "bi_..."
  email: string; // lower-cased, unique
  /** The record's contact details: the first call's, replaced only by a call past the 30-day window. */
  phone: string | null;
  name: string | null;
  /** Every call's stay, consent, phone and name, oldest first, bounded (a repeat appends; nothing earlier is rewritten). */
  calls: IntentCall[];
  guest_consent: true;
  created_at: Date;
  /** The email's last call: the retention period runs from here (TTL index `retention`). */
  updated_at: Date;
  /** When contact details were last saved; the 30-day no-overwrite window runs from here. */
  contact_saved_at: Date;
}
