/**
 * The card of a home: the fields a search hit is read from (the apartment search's result and the
 * exact price of its stay; the building search's units read a subset), kept whole in one binary
 * doc value (`card`) beside the document. A hit read from it skips the stored `_source`, whose
 * compressed blocks cost more to open than the card (docs/search-index.md, "A flat index"); and one
 * JSON value keeps every field as written (no float doc values, no cut keyword, no sorted arrays).
 */
import type { HomeDocument } from './home-document';
import type { PricingInputs } from '../engine/types';

/** The fields of a card, in the order the indexer writes them. */
export const CARD_FIELDS = [
  'home_id',
  'slug',
  'name',
  'unit_number',
  'property_id',
  'city_slug',
  'bedrooms',
  'bathrooms',
  'sqft',
  'city_name',
  'location',
  'rating_average',
  'rating_count',
  'hero_photo_id',
  'hero_photo_source',
  'flex_eligible',
  'earliest_available_date',
  'reference_price',
  'pricing',
] as const satisfies ReadonlyArray<keyof HomeDocument>;

export type CardField = (typeof CARD_FIELDS)[number];
export type HomeCard = Pick<HomeDocument, CardField>;

/** The pricing inputs' fields, in the order the card holds them (kernel/engine/types.ts, PricingInputs). */
export const PRICING_FIELDS = [
  'slug',
  'nightly_rate_cents',
  'monthly_rate_cents',
  'fees',
  'seasonal_discounts',
  'length_of_stay_discounts',
  'special_offer',
  'flex_eligible',
  'flex_tiers',
  'minimum_nightly_stay',
] as const satisfies ReadonlyArray<keyof PricingInputs>;

/** Every pricing input is listed: one added to PricingInputs and not here fails to compile. */
type Covers<T, L extends ReadonlyArray<keyof T>> = Exclude<keyof T, L[number]> extends never ? true : never;
const pricingCovered: Covers<PricingInputs, typeof PRICING_FIELDS> = true;

/**
 * The card's layout: the homes index records it with its mapping (indexer/es-admin.ts), so an index
 * whose cards were written in another layout is rebuilt, never read with this one.
 */
export const CARD_LAYOUT = `positional:${pricingCovered}:${CARD_FIELDS.join(',')};${PRICING_FIELDS.join(',')}`;

/**
 * The doc value the indexer writes: the card as positional JSON (each field in CARD_FIELDS order,
 * the pricing inputs in PRICING_FIELDS order, no key written), base64 as a `binary` field takes it.
 * A search reads 75 or more cards per request: without their keys they are about a third smaller
 * to send, and to parse.
 */
export function encodeCard(doc: HomeCard): string {
  // Every field is required by its type (null where it has no value), so a position never stands for an absent key.
  const values = CARD_FIELDS.map((f) => (f === 'pricing' ? PRICING_FIELDS.map((k) => doc.pricing[k] ?? null) : (doc[f] ?? null)));
  return Buffer.from(JSON.stringify(values)).toString('base64');
}

export function decodeCard(value: string): HomeCard {
  const parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as unknown;
  // A card written keyed, by an indexer before the positional layout: read as it is while that index
  // still serves (the service is upgraded first; the index is rebuilt when its version differs).
  if (!Array.isArray(parsed)) return parsed as HomeCard;
  return cardOf(parsed as unknown as CardValues);
}

/** A positional card, as written: each field at its place in CARD_FIELDS, the pricing inputs at theirs in PRICING_FIELDS. */
type CardValues = {
  [I in keyof typeof CARD_FIELDS]: I extends `${number}`
    ? (typeof CARD_FIELDS)[I] extends 'pricing'
      ? PricingValues
      : HomeCard[(typeof CARD_FIELDS)[I]]
    : never;
};
type PricingValues = { [I in keyof typeof PRICING_FIELDS]: I extends `${number}` ? PricingInputs[(typeof PRICING_FIELDS)[I]] : never };

/**
 * The keyed card, written as one object literal: every card then has the same shape (hidden class),
 * where setting the keys in a loop made a dictionary, slower to build and to read (the engine reads
 * each pricing input many times per stay). The places must be CARD_FIELDS' and PRICING_FIELDS';
 * a unit test round-trips every home of a generated inventory through encodeCard and this.
 */
function cardOf(v: CardValues): HomeCard {
  const p = v[18];
  return {
    home_id: v[0],
    slug: v[1],
    name: v[2],
    unit_number: v[3],
    property_id: v[4],
    city_slug: v[5],
    bedrooms: v[6],
    bathrooms: v[7],
    sqft: v[8],
    city_name: v[9],
    location: v[10],
    rating_average: v[11],
    rating_count: v[12],
    hero_photo_id: v[13],
    hero_photo_source: v[14],
    flex_eligible: v[15],
    earliest_available_date: v[16],
    reference_price: v[17],
    pricing: {
      slug: p[0],
      nightly_rate_cents: p[1],
      monthly_rate_cents: p[2],
      fees: p[3],
      seasonal_discounts: p[4],
      length_of_stay_discounts: p[5],
      special_offer: p[6],
      flex_eligible: p[7],
      flex_tiers: p[8],
      minimum_nightly_stay: p[9],
    },
  };
}

/** Whether a read of `fields` can take the card instead of `_source`. */
export function cardHolds(fields: readonly string[]): boolean {
  return fields.every((f) => (CARD_FIELDS as readonly string[]).includes(f));
}
