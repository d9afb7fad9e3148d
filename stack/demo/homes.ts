/**
 * Demo homes, generated lazily building by building: each home draws from its own seeded
 * streams (attributes, calendar, rates), so 100,000 homes stream without being held at once.
 */
import type { HomeRecord, IsoDate, LaundryType, PhotoRef } from '../../services/kernel/inventory/records';
import { buildCalendar, calendarPolicy, calendarSpan, firstMoveInDate, type CalendarSpan } from './calendar';
import { addDays, maxDate } from '../../services/kernel/engine/dates';
import { timestampOn } from './dates';
import { BEDROOM_PHOTO_IDS, KITCHEN_PHOTO_IDS, LIVING_ROOM_PHOTO_IDS, photoCaption } from './photo-pool';
import { rngFor, type Rng } from './prng';
import type { BuildingPlan } from './properties';
import { FLEX_COMMITMENTS, flexTiers, homeFees, lengthOfStayDiscounts, monthlyRateCents, nightlyRateCents, seasonalDiscounts, specialOffer } from './rates';
import { availableFrom, minimumStayFloor, minimumStayRules, mustVacateBy } from './stay-rules';
import { unitLayouts, type UnitLayout } from './unit-layout';

/** Chance that a home whose first move-in date is within three weeks carries a special offer. */
export const SPECIAL_OFFER_CHANCE = 0.26;
export const UNPUBLISHED_SHARE = 0.02;
/**
 * Display cities whose every home is unpublished, so that no search returns them: docs/contract.md
 * (list_markets_tool rule 1) lists a market or city "only while at least one of its homes can be
 * returned by a search".
 */
export const DORMANT_CITY_SLUGS: ReadonlySet<string> = new Set(['quincy']);

export function* generateHomes(seed: number, today: IsoDate, plans: readonly BuildingPlan[]): Generator<HomeRecord> {
  const span = calendarSpan(today);
  for (const plan of plans) {
    const units = unitLayouts(rngFor(seed, 'units', plan.property._id), plan);
    for (let k = 0; k < units.length; k++) yield buildHome(seed, today, span, plan, units[k], plan.firstHomeIndex + k);
  }
}

function buildHome(seed: number, today: IsoDate, span: CalendarSpan, plan: BuildingPlan, unit: UnitLayout, index: number): HomeRecord {
  const rng = rngFor(seed, 'home', index);
  const { property, placement, features } = plan;
  const hasParking = rng.chance(features.garage ? 0.75 : placement.city.urban < 0.5 ? 0.6 : 0.12);
  const catsAllowed = features.allows_cats && rng.chance(0.85);
  const dogsAllowed = features.allows_dogs && rng.chance(0.8);
  const laundry: LaundryType = rng.chance(plan.inUnitLaundryShare) ? 'In Unit' : features.laundryRoom ? 'On-Site Facility' : null;
  const coolClimate = placement.metro.slug === 'seattle' || placement.metro.slug === 'san-francisco';
  const airConditioned = rng.chance(coolClimate ? 0.5 : 0.92);
  const hasBalcony = rng.chance(unit.floor > 1 ? 0.38 : 0.08);
  const selfCheckIn = rng.chance(0.6);

  const calRng = rngFor(seed, 'calendar', index);
  const calendar = buildCalendar(calRng, span, today, calendarPolicy(calRng, span));
  const floor = minimumStayFloor(calRng);
  const rules = minimumStayRules(calRng, span, floor);
  const opensOn = availableFrom(calRng, today);
  const vacateBy = mustVacateBy(calRng, today);
  const calendarOpening = firstMoveInDate(calendar, today);
  const firstMoveIn = calendarOpening !== null && opensOn !== null ? maxDate(calendarOpening, opensOn) : calendarOpening;

  const rateRng = rngFor(seed, 'rates', index);
  const monthly = monthlyRateCents(rateRng, placement.metro.costLevel, plan.priceLevel * (unit.floor >= 10 ? 1.03 : 1), unit.bedrooms);
  const tiers = flexTiers(rateRng, monthly, floor > FLEX_COMMITMENTS[0]);
  const createdOn = maxDate(property.created_at.toISOString().slice(0, 10), addDays(today, -rng.int(7, 1200)));
  // Strictly before today: a generated record must not look changed after the first index run.
  const updatedOn = maxDate(createdOn, addDays(today, -rng.int(1, 14)));

  return {
    _id: `home-${String(index + 1).padStart(6, '0')}`,
    slug: `${placement.city.slug}-${plan.shortSlug}-${unit.unit_number.toLowerCase()}`,
    name: homeName(rng, unit, hasBalcony, laundry, placement.neighborhood.name),
    property_id: property._id,
    market_slug: property.market_slug,
    city_slug: property.city_slug,
    neighborhood_id: property.neighborhood_id,
    unit_number: unit.unit_number,
    floor: unit.floor,
    bedrooms: unit.bedrooms,
    bathrooms: unit.bathrooms,
    sqft: unit.sqft,
    amenities: unitAmenities(rng, { laundry, airConditioned, hasBalcony, selfCheckIn, hasParking }),
    has_parking: hasParking,
    cats_allowed: catsAllowed,
    dogs_allowed: dogsAllowed,
    laundry_type: laundry,
    air_conditioned: airConditioned,
    has_balcony: hasBalcony,
    self_check_in: selfCheckIn,
    photos: property.photos.length === 0 ? [] : unitPhotos(rng, unit.bedrooms),
    nightly_rate_cents: nightlyRateCents(monthly),
    monthly_rate_cents: monthly,
    fees: homeFees(rateRng, unit.bedrooms),
    seasonal_discounts: seasonalDiscounts(rateRng, span),
    length_of_stay_discounts: lengthOfStayDiscounts(rateRng),
    special_offer: specialOffer(rateRng, today, firstMoveIn, SPECIAL_OFFER_CHANCE),
    flex_eligible: tiers.length > 0,
    flex_tiers: tiers,
    minimum_nightly_stay: floor,
    minimum_stay_rules: rules,
    calendar,
    available_from: opensOn,
    must_vacate_by: vacateBy,
    published: !rng.chance(UNPUBLISHED_SHARE) && !DORMANT_CITY_SLUGS.has(placement.city.slug),
    created_at: timestampOn(createdOn, rng.int(8, 20), rng.int(0, 59)),
    updated_at: timestampOn(updatedOn, rng.int(0, 23), rng.int(0, 59)),
    deleted_at: null,
  };
}

const ADJECTIVES = ['Bright', 'Modern', 'Sunny', 'Stylish', 'Spacious', 'Cozy', 'Elegant', 'Airy', 'Quiet', 'Renovated'];

function homeName(rng: Rng, unit: UnitLayout, balcony: boolean, laundry: LaundryType, neighborhood: string): string {
  const size = unit.bedrooms === 0 ? 'studio' : `${unit.bedrooms}-bedroom`;
  const feature = balcony ? ' with balcony' : laundry === 'In Unit' ? ' with in-unit laundry' : unit.floor >= 10 ? ' with city views' : '';
  return `${rng.pick(ADJECTIVES)} ${size}${feature} in ${neighborhood}`;
}

interface UnitFlags {
  laundry: LaundryType;
  airConditioned: boolean;
  hasBalcony: boolean;
  selfCheckIn: boolean;
  hasParking: boolean;
}

/** Unit amenities agree with the unit's flags; the building list may still mention a garage. */
function unitAmenities(rng: Rng, f: UnitFlags): string[] {
  const list = ['Fully furnished', 'Wi-Fi', 'Smart TV', 'Fully equipped kitchen', 'Heating'];
  if (rng.chance(0.8)) list.push('Dishwasher');
  if (f.laundry === 'In Unit') list.push('Washer/dryer in unit');
  if (f.airConditioned) list.push('Air conditioning');
  if (f.hasBalcony) list.push('Private balcony');
  if (rng.chance(0.6)) list.push('Dedicated workspace');
  if (f.selfCheckIn) list.push('Keyless entry');
  if (f.hasParking) list.push('Assigned parking space');
  return list;
}

/** 0-6 unit photos: a living room first, then bedrooms and the kitchen. */
function unitPhotos(rng: Rng, bedrooms: number): PhotoRef[] {
  const count = rng.weighted([
    [0, 8],
    [1, 6],
    [2, 10],
    [3, 16],
    [4, 20],
    [5, 20],
    [6, 20],
  ]);
  const order = [LIVING_ROOM_PHOTO_IDS, BEDROOM_PHOTO_IDS, KITCHEN_PHOTO_IDS, BEDROOM_PHOTO_IDS, LIVING_ROOM_PHOTO_IDS, KITCHEN_PHOTO_IDS];
  const used = new Set<string>();
  const photos: PhotoRef[] = [];
  for (const pool of order.slice(0, count)) {
    const id = rng.pick(pool.filter((p) => !used.has(p)));
    used.add(id);
    const caption = pool === BEDROOM_PHOTO_IDS && bedrooms === 0 ? 'Sleeping area' : photoCaption(id);
    photos.push({ id, caption });
  }
  return photos;
}
