/**
 * Demo buildings. `planBuildings` decides how many there are (about one per ten homes), where
 * they stand, how many homes each holds, and builds their `PropertyRecord`s; the plan also
 * carries what the home generator needs to stay consistent with its building.
 */
import type { PropertyRecord } from '../../services/kernel/inventory/records';
import {
  buildingAmenities,
  buildingDescription,
  buildingFeatures,
  buildingName,
  buildingRating,
  buildingStories,
  locationScores,
  type BuildingFeatures,
} from './building-traits';
import { addDays } from '../../services/kernel/engine/dates';
import { timestampOn } from './dates';
import { placements, type Placement } from './markets';
import { slugify } from './metros';
import { EXTERIOR_PHOTO_IDS, photoCaption } from './photo-pool';
import { rngFor, type Rng } from './prng';

export const HOMES_PER_BUILDING = 10;
/** Share of buildings without any photo; their homes get none either (docs/contract.md, "Photos": none when the home has no photo). */
export const PHOTOLESS_BUILDING_SHARE = 0.05;

export interface BuildingPlan {
  property: PropertyRecord;
  placement: Placement;
  features: BuildingFeatures;
  /** Short name used in home slugs; unique within the city. */
  shortSlug: string;
  stories: number;
  /** Global index of the building's first home, and how many homes it holds. */
  firstHomeIndex: number;
  homeCount: number;
  /** Unit numbering: "4B" or "402". */
  unitStyle: 'letter' | 'number';
  /** Share of units with an in-unit washer/dryer. */
  inUnitLaundryShare: number;
  /** Rent multiplier of this building within its market (finish, amenities). */
  priceLevel: number;
}

export function planBuildings(seed: number, homes: number, today: string): BuildingPlan[] {
  const count = homes === 0 ? 0 : Math.max(1, Math.round(homes / HOMES_PER_BUILDING));
  const sizes = homesPerBuilding(seed, homes, count);
  const where = placements();
  const cities = [...new Map(where.map((p) => [p.city.slug, p.city])).keys()];
  const taken = new Set<string>();
  const plans: BuildingPlan[] = [];
  let firstHomeIndex = 0;
  for (let i = 0; i < count; i++) {
    const rng = rngFor(seed, 'building', i);
    // The first buildings visit every display city once, so each city has inventory.
    const placement = i < cities.length ? rng.pick(where.filter((p) => p.city.slug === cities[i])) : pickPlacement(rng, where);
    const plan = buildPlan(rng, i, placement, today, taken);
    plans.push({ ...plan, firstHomeIndex, homeCount: sizes[i] });
    firstHomeIndex += sizes[i];
  }
  return plans;
}

/** Splits `homes` over the buildings: random weights 0.6..1.4, rounded by largest remainder. */
function homesPerBuilding(seed: number, homes: number, count: number): number[] {
  const weights = Array.from({ length: count }, (_, i) => rngFor(seed, 'building-size', i).float(0.6, 1.4));
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (homes * w) / total);
  const sizes = exact.map(Math.floor);
  let left = homes - sizes.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (left-- <= 0) break;
    sizes[i]++;
  }
  return sizes;
}

function pickPlacement(rng: Rng, where: Placement[]): Placement {
  const metros = [...new Set(where.map((p) => p.metro))];
  const metro = rng.weighted(metros.map((m) => [m, m.weight] as const));
  const city = rng.weighted(metro.cities.map((c) => [c, c.weight] as const));
  return rng.pick(where.filter((p) => p.city === city));
}

type PlanWithoutHomes = Omit<BuildingPlan, 'firstHomeIndex' | 'homeCount'>;

function buildPlan(rng: Rng, index: number, placement: Placement, today: string, taken: Set<string>): PlanWithoutHomes {
  const { metro, city } = placement;
  const stories = buildingStories(rng, city.urban);
  const address = `${rng.int(1, 29) * 10 + rng.int(0, 9) * 100 + rng.pick([0, 0, 1, 5])} ${rng.pick(city.streets)}`;
  const name = buildingName(rng, stories, city.urban, address);
  const shortSlug = uniqueShortSlug(name, city.slug, taken);
  const features = buildingFeatures(rng, placement, stories);
  const amenities = buildingAmenities(rng, features);
  const [latitude, longitude] = scatter(rng, city.latitude, city.longitude, city.radiusMiles);
  const photoless = rng.chance(PHOTOLESS_BUILDING_SHARE);
  const createdOn = addDays(today, -rng.int(90, 1500));
  // Strictly before today: a generated record must not look changed after the first index run.
  const updatedOn = addDays(today, -rng.int(1, 30));
  const property: PropertyRecord = {
    _id: `prop-${String(index + 1).padStart(6, '0')}`,
    slug: `${shortSlug}-${city.slug}`,
    name,
    market_slug: metro.slug,
    city_slug: city.slug,
    neighborhood_id: placement.neighborhoodId,
    address,
    city: city.name,
    state: city.state,
    latitude,
    longitude,
    amenities,
    has_pool: features.has_pool,
    has_gym: features.has_gym,
    has_elevator: features.has_elevator,
    description: buildingDescription(name, stories, placement, amenities, features),
    photos: photoless ? [] : rng.sample(EXTERIOR_PHOTO_IDS, rng.int(2, 5)).map((id) => ({ id, caption: photoCaption(id) })),
    rating: buildingRating(rng),
    scores: locationScores(rng, city.urban),
    allows_cats: features.allows_cats,
    allows_dogs: features.allows_dogs,
    created_at: timestampOn(createdOn, rng.int(9, 18), rng.int(0, 59)),
    updated_at: timestampOn(updatedOn, rng.int(0, 23), rng.int(0, 59)),
  };
  return {
    property,
    placement,
    features,
    shortSlug,
    stories,
    unitStyle: rng.chance(0.5) ? 'letter' : 'number',
    inUnitLaundryShare: rng.float(0.3, 0.95),
    priceLevel: rng.float(0.9, 1.1) + (features.has_pool ? 0.03 : 0) + (features.has_gym ? 0.02 : 0),
  };
}

/** "The Harlow" → "harlow"; a second Harlow in the same city → "harlow-2". */
function uniqueShortSlug(name: string, citySlug: string, taken: Set<string>): string {
  const base = slugify(name).replace(/^the-/, '');
  let slug = base;
  for (let n = 2; taken.has(`${citySlug}/${slug}`); n++) slug = `${base}-${n}`;
  taken.add(`${citySlug}/${slug}`);
  return slug;
}

/** A point uniformly spread within `radiusMiles` of the centre, rounded to 6 decimals (~10 cm). */
function scatter(rng: Rng, lat: number, lon: number, radiusMiles: number): [number, number] {
  const r = radiusMiles * Math.sqrt(rng.next());
  const theta = 2 * Math.PI * rng.next();
  const dLat = (r * Math.cos(theta)) / 69.0;
  const dLon = (r * Math.sin(theta)) / (69.17 * Math.cos((lat * Math.PI) / 180));
  return [round6(lat + dLat), round6(lon + dLon)];
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
