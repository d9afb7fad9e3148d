/**
 * The pure shaper of the building search (docs/contract.md, search_properties_tool rule 9): a
 * building record, its matching units with their exact prices and its units open at other dates
 * in, one card out. No I/O.
 */
import type { MatchedField } from '../shared/matched-texts';
import type { PropertyRecord } from '../../kernel/inventory/records';
import type { HomeDocument } from '../../kernel/store/home-document';
import { photoUrl } from '../../media/photos';
import type { PricedDocument, ResultPrice } from '../shared/result-price';
import { haversineMiles } from '../shared/distance';

/** "units: at most three per bedroom count". */
export const UNITS_PER_BEDROOM_COUNT = 3;
/** Units listed under other_dates (other_dates_count counts them all). */
export const OTHER_DATES_LISTED = 5;

/** What a card shows of a unit, and what prices it: the fields a building search fetches (building-body.ts UNIT_SOURCE). */
export type UnitDocument = Pick<
  HomeDocument,
  'home_id' | 'slug' | 'unit_number' | 'property_id' | 'bedrooms' | 'bathrooms' | 'sqft' | 'earliest_available_date' | 'hero_photo_id'
> &
  PricedDocument;

export interface PricedUnit {
  doc: UnitDocument;
  priced: ResultPrice;
}

export type OtherDatesUnit = Pick<HomeDocument, 'unit_number' | 'bedrooms' | 'bathrooms' | 'sqft' | 'earliest_available_date'>;

export interface OtherDates {
  count: number;
  units: OtherDatesUnit[];
}

export interface CardContext {
  publicBaseUrl: string;
  near: { lat: number; lon: number } | null;
}

const price = (u: PricedUnit) => u.priced.price.display_price_with_discount;
/** The pre-discount price when a discount really lowers this price, else null. */
const anchorOf = (u: PricedUnit): number | null => {
  const before = u.priced.price.display_price_without_discount;
  return before > price(u) ? before : null;
};
/** Cheapest first; equal prices by apartment id, so the order is stable. */
const byPrice = (a: PricedUnit, b: PricedUnit) => price(a) - price(b) || (a.doc.home_id < b.doc.home_id ? -1 : a.doc.home_id > b.doc.home_id ? 1 : 0);

/** The cheapest unit of the building, which sets from_price (and the order of price-sorted pages). */
export function cheapestUnit(units: readonly PricedUnit[]): PricedUnit | null {
  return [...units].sort(byPrice)[0] ?? null;
}

export function shapeCard(property: PropertyRecord, matching: readonly PricedUnit[], other: OtherDates, ctx: CardContext) {
  const sorted = [...matching].sort(byPrice);
  const groups = new Map<number, PricedUnit[]>();
  for (const u of sorted) groups.set(u.doc.bedrooms, [...(groups.get(u.doc.bedrooms) ?? []), u]);
  // Map insertion follows the price order: each group's first unit is its cheapest, groups come cheapest first.
  const bedGroups = [...groups.entries()].map(([bedrooms, units]) => ({
    bedrooms,
    count: units.length,
    min_price: price(units[0]),
    anchor_price: anchorOf(units[0]),
    price_label: units[0].priced.price.display_price_label,
  }));
  const withOffer = bedGroups.filter((g) => g.anchor_price !== null);
  const smallest = withOffer.sort((a, b) => a.anchor_price! - a.min_price - (b.anchor_price! - b.min_price))[0];
  const from = sorted[0];
  const point = { lat: property.latitude, lon: property.longitude };
  return {
    id: property._id,
    slug: property.slug,
    name: property.name,
    address: property.address,
    city: property.city,
    state: property.state,
    latitude: property.latitude,
    longitude: property.longitude,
    rating: property.rating ? { average: property.rating.average, count: property.rating.count } : null,
    images: property.photos.map((p) => photoUrl(ctx.publicBaseUrl, p.id)),
    amenities: [...property.amenities],
    description: property.description,
    from_price: from ? price(from) : 0,
    from_price_label: from ? from.priced.price.display_price_label : '',
    distance_miles: ctx.near ? Math.round(haversineMiles(ctx.near, point) * 100) / 100 : null,
    offer: smallest ? { saving: smallest.anchor_price! - smallest.min_price, price_label: smallest.price_label } : null,
    bed_groups: bedGroups,
    units: [...groups.values()].flatMap((units) =>
      units.slice(0, UNITS_PER_BEDROOM_COUNT).map((u) => ({
        id: u.doc.home_id,
        slug: u.doc.slug,
        unit_number: u.doc.unit_number,
        bedrooms: u.doc.bedrooms,
        baths: u.doc.bathrooms,
        sqft: u.doc.sqft,
        price: price(u),
        anchor_price: anchorOf(u),
        price_label: u.priced.price.display_price_label,
        available_from: u.doc.earliest_available_date,
        image: u.doc.hero_photo_id ? photoUrl(ctx.publicBaseUrl, u.doc.hero_photo_id) : null,
      })),
    ),
    other_dates_count: other.count,
    other_dates: other.units.slice(0, OTHER_DATES_LISTED).map((u) => ({
      unit_number: u.unit_number,
      bedrooms: u.bedrooms,
      baths: u.bathrooms,
      sqft: u.sqft,
      available_from: u.earliest_available_date,
    })),
  };
}

type ShapedCard = ReturnType<typeof shapeCard>;
/** A building's card; with q, the fields the first unit it lists matched, and each unit's own (../shared/matched-texts.ts). */
export type PropertyCard = Omit<ShapedCard, 'units'> & {
  units: Array<ShapedCard['units'][number] & { matched?: MatchedField[] }>;
  matched?: MatchedField[];
};
