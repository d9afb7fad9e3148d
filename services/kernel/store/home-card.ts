/**
 * The card of a home: the fields a search hit is read from (the apartment search's result and the
 * exact price of its stay; the building search's units read a subset), kept whole in one binary
 * doc value (`card`) beside the document. A hit read from it skips the stored `_source`, whose
 * compressed blocks cost more to open than the card (docs/decisions.md, "A flat index"); and one
 * JSON value keeps every field as written (no float doc values, no cut keyword, no sorted arrays).
 */
import type { HomeDocument } from './home-document';

/** The fields of a card, in the order the indexer writes them. */
export const CARD_FIELDS = [
  'home_id', 'slug', 'name', 'unit_number', 'property_id', 'city_slug', 'bedrooms', 'bathrooms', 'sqft', 'city_name', 'location', 'rating_average', 'rating_count',
  'hero_photo_id', 'hero_photo_source', 'flex_eligible', 'earliest_available_date', 'reference_price', 'pricing',
] as const satisfies ReadonlyArray<keyof HomeDocument>;

export type CardField = (typeof CARD_FIELDS)[number];
export type HomeCard = Pick<HomeDocument, CardField>;

/** The doc value the indexer writes: the card's JSON, base64 as a `binary` field takes it. */
export function encodeCard(doc: HomeCard): string {
  const card: Partial<HomeCard> = {};
  for (const f of CARD_FIELDS) (card as Record<string, unknown>)[f] = doc[f];
  return Buffer.from(JSON.stringify(card)).toString('base64');
}

export function decodeCard(value: string): HomeCard {
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as HomeCard;
}

/** Whether a read of `fields` can take the card instead of `_source`. */
export function cardHolds(fields: readonly string[]): boolean {
  return fields.every((f) => (CARD_FIELDS as readonly string[]).includes(f));
}
