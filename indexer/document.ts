/**
 * `toHomeDocument`: the one pure function that turns a home's canonical records into its
 * Elasticsearch document. Everything search filters, sorts or counts on is precomputed here.
 */
import { encodeMatchCard, homeTexts, indexedTexts } from '../services/kernel/text/home-texts';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../services/kernel/inventory/records';
import { computeAvailability } from '../services/kernel/engine/availability';
import { displayPrice, referenceStay } from '../services/kernel/engine/pricing';
import { offeredTiers } from '../services/kernel/engine/flex';
import { heroPhoto } from '../services/kernel/inventory/photo-order';
import { type DayRangeValue, type FlexStayDocument, type HomeDocument, type WindowDocument } from '../services/kernel/store/home-document';
import { minimumPieces, type Run } from '../services/kernel/engine/calendar';
import { stayStarts, type StayStartGroup } from '../services/kernel/engine/stay-starts';
import { encodeSpans, staySpans } from '../services/kernel/store/stay-spans';
import type { PricingInputs } from '../services/kernel/engine/types';
import { toDayNumber } from '../services/kernel/engine/dates';
import { overviewWindows } from '../services/kernel/engine/overview-windows';
import { priceCells } from './price-bands';
import { LAST_KEY_DAY, minimumKeyRanges, type KeyRange } from '../services/kernel/store/minimum-keys';
import { encodeCard } from '../services/kernel/store/home-card';
import { withBuildingRules } from '../services/kernel/engine/building-rules';

const dollars = (cents: number): number => Math.round(cents / 100);

/** The minimum keys of a home from `today` on: one span per stretch of dates sharing a minimum stay (kernel/store/minimum-keys.ts). */
function minimumKeys(home: HomeRecord, today: string): KeyRange[] {
  const from = toDayNumber(today);
  return minimumPieces(home).flatMap((piece) => minimumKeyRanges(Math.max(piece.start, from), Math.min(piece.end, LAST_KEY_DAY), piece.minimum));
}

const ranges = (runs: readonly Run[]): DayRangeValue[] => runs.map((r) => (r.end === Infinity ? { gte: r.start } : { gte: r.start, lt: r.end }));

/** The engine's pricing inputs of a home, as the search prices its results from them. */
function pricingInputs(home: HomeRecord): PricingInputs {
  return {
    slug: home.slug,
    nightly_rate_cents: home.nightly_rate_cents,
    monthly_rate_cents: home.monthly_rate_cents,
    fees: home.fees,
    seasonal_discounts: home.seasonal_discounts,
    length_of_stay_discounts: home.length_of_stay_discounts,
    special_offer: home.special_offer,
    flex_eligible: home.flex_eligible,
    flex_tiers: home.flex_tiers,
    minimum_nightly_stay: home.minimum_nightly_stay,
  };
}

/**
 * Each offered tier with the move-in dates it can be held from ("get_quote_tool": the tier's
 * minimum, the whole commitment inside one window, before must_vacate_by) and its exact price:
 * a Flex price does not depend on the dates.
 */
function flexStays(home: HomeRecord, groups: readonly StayStartGroup[], today: string): FlexStayDocument[] {
  return offeredTiers(home).flatMap((tier) => {
    const cn = tier.committed_nights;
    const spans: Run[] = [];
    for (const g of groups) {
      if (g.minimum_nightly_stay > cn) continue;
      // s + cn <= window_end, so the move-ins end at window_end - cn + 1 (Infinity stays Infinity).
      const last = g.window_end + 1 - cn;
      for (const span of g.move_in) {
        const end = Math.min(span.end, last);
        if (span.start < end) spans.push({ start: span.start, end });
      }
    }
    if (spans.length === 0) return [];
    const price = displayPrice(home, { kind: 'flex', start_date: today, committed_nights: cn });
    return [
      { committed_nights: cn, move_in: ranges(spans), price: price.display_price_with_discount, price_without_discount: price.display_price_without_discount },
    ];
  });
}

export function toHomeDocument(record: HomeRecord, property: PropertyRecord, market: MarketRecord, today: string): HomeDocument {
  const home = withBuildingRules(record, property);
  const availability = computeAvailability(home, today);
  const stay = referenceStay(home, today);
  const price = displayPrice(home, stay);
  const neighborhood = market.neighborhoods.find((n) => n.id === home.neighborhood_id);
  const city = market.cities.find((c) => c.slug === home.city_slug);
  const offer = home.special_offer;
  // "Active" = its move-in window has not closed yet (docs/contract.md, "Filters": deals_only, only homes with an active special offer).
  const offerActive = offer !== null && offer.end_date > today;
  const hero = heroPhoto(home, property);
  const flexTiers = offeredTiers(home).map((t) => t.committed_nights);
  const starts = stayStarts(home, today);
  const spans = staySpans(starts);
  const windows: WindowDocument[] = overviewWindows(availability.bookable_windows, home.minimum_nightly_stay);
  const cells = priceCells(home, starts.groups, today);
  const texts = homeTexts(home, property, market);
  const bookable = home.published && home.deleted_at === null && availability.earliest_available_date !== null;
  const doc: Omit<HomeDocument, 'card'> = {
    home_id: home._id,
    slug: home.slug,
    name: home.name,
    unit_number: home.unit_number,
    property_id: property._id,
    property_slug: property.slug,
    property_name: property.name,
    market_slug: home.market_slug,
    city_slug: home.city_slug,
    city_name: city?.name ?? property.city,
    state: city?.state ?? property.state,
    neighborhood_id: home.neighborhood_id,
    neighborhood_slug: neighborhood?.slug ?? null,
    location: { lat: property.latitude, lon: property.longitude },
    bedrooms: home.bedrooms,
    bathrooms: home.bathrooms,
    sqft: home.sqft,
    floor: home.floor,
    first_floor_unit: home.floor <= 1,
    has_parking: home.has_parking,
    cats_allowed: home.cats_allowed,
    dogs_allowed: home.dogs_allowed,
    pets_allowed: home.cats_allowed || home.dogs_allowed,
    laundry_type: home.laundry_type,
    in_unit_laundry: home.laundry_type === 'In Unit',
    air_conditioned: home.air_conditioned,
    has_balcony: home.has_balcony,
    self_check_in: home.self_check_in,
    has_pool: property.has_pool,
    has_gym: property.has_gym,
    has_elevator: property.has_elevator,
    amenities: [...new Set([...home.amenities, ...property.amenities])],
    rating_average: property.rating?.average ?? null,
    rating_count: property.rating?.count ?? 0,
    monthly_rate: dollars(home.monthly_rate_cents),
    nightly_rate: dollars(home.nightly_rate_cents),
    reference_price: {
      start_date: stay.start_date,
      end_date: stay.kind === 'fixed' ? stay.end_date : stay.start_date,
      with_discount: price.display_price_with_discount,
      without_discount: price.display_price_without_discount,
    },
    has_active_offer: offerActive,
    offer_percent: offerActive ? offer.percent : null,
    offer_end_date: offerActive ? offer.end_date : null,
    // Eligible in search only when a tier can actually be quoted.
    flex_eligible: flexTiers.length > 0,
    flex_tiers: flexTiers,
    minimum_nightly_stay: home.minimum_nightly_stay,
    earliest_available_date: availability.earliest_available_date,
    bookable,
    available_from: home.available_from,
    must_vacate_by: home.must_vacate_by,
    windows,
    move_ins: ranges(starts.groups.flatMap((g) => g.move_in)),
    minimum_keys: minimumKeys(home, today),
    open_windows: ranges(starts.windows),
    move_outs: ranges(starts.move_outs),
    stay_spans: spans,
    span_card: encodeSpans(spans),
    fixed_move_ins: ranges(starts.groups.flatMap((g) => g.fixed_move_in)),
    price_lo: cells.lo,
    price_hi: cells.hi,
    flex_stays: flexStays(home, starts.groups, today),
    pricing: pricingInputs(home),
    hero_photo_id: hero?.id ?? null,
    hero_photo_source: hero?.source ?? null,
    created_at: home.created_at.toISOString(),
    updated_at: home.updated_at.toISOString(),
    indexed_for: today,
    text: indexedTexts(texts),
    match_card: encodeMatchCard(texts),
  };
  return { ...doc, card: encodeCard(doc) };
}
