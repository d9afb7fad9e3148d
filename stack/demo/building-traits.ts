/**
 * What makes one demo building: name, height, amenities consistent with its feature flags,
 * a description, a guest rating (or none) and walk/transit/bike scores (or none yet).
 */
import type { LocationScores, Rating } from '../../services/kernel/inventory/records';
import type { Placement } from './markets';
import type { Rng } from './prng';

const NAME_WORDS = [
  'Harlow',
  'Ellery',
  'Marlowe',
  'Avery',
  'Sterling',
  'Beacon',
  'Linden',
  'Hawthorne',
  'Alder',
  'Cedar',
  'Juniper',
  'Summit',
  'Meridian',
  'Crescent',
  'Arbor',
  'Atlas',
  'Vantage',
  'Foundry',
  'Monarch',
  'Regent',
  'Ashford',
  'Bristol',
  'Carlton',
  'Dalton',
  'Emerson',
  'Fairmont',
  'Grayson',
  'Kingsley',
  'Lennox',
  'Norwood',
  'Preston',
  'Rowan',
  'Sawyer',
  'Thornton',
  'Vesper',
  'Whitman',
  'Larkin',
  'Mercer',
  'Halston',
  'Sloane',
  'Calloway',
  'Wren',
  'Aspen',
  'Sable',
  'Quarry',
  'Granary',
  'Tannery',
  'Lumen',
  'Oriel',
  'Bellamy',
];

const EXTRA_AMENITIES = [
  'Package lockers',
  'Rooftop deck',
  'Bike storage',
  'Resident lounge',
  'Coworking space',
  'Doorman',
  'Courtyard',
  'EV charging',
  'Storage units',
  'Grill area',
  'Concierge',
  'Controlled access',
  'Sauna',
  'Business center',
  'Game room',
  'Media room',
];

export function buildingStories(rng: Rng, urban: number): number {
  if (urban >= 0.8)
    return rng.weighted([
      [rng.int(4, 6), 3],
      [rng.int(7, 15), 4],
      [rng.int(16, 45), 3],
    ]);
  if (urban >= 0.5)
    return rng.weighted([
      [rng.int(3, 5), 4],
      [rng.int(6, 12), 4],
      [rng.int(13, 25), 1],
    ]);
  return rng.weighted([
    [rng.int(2, 4), 6],
    [rng.int(5, 8), 3],
  ]);
}

/** A building name; in dense cities sometimes just its street address, as in "340 Broadway". */
export function buildingName(rng: Rng, stories: number, urban: number, address: string): string {
  const word = rng.pick(NAME_WORDS);
  return rng.weighted<string>([
    [`The ${word}`, 5],
    [`${word} House`, 1],
    [`${word} Flats`, 1],
    [`${word} Residences`, 1],
    [`${word} Lofts`, stories <= 8 ? 1.5 : 0],
    [`${word} Tower`, stories >= 12 ? 2 : 0],
    [`${word} Commons`, urban < 0.5 ? 2 : 0],
    [address, urban >= 0.7 ? 1.5 : 0],
  ]);
}

export interface BuildingFeatures {
  has_pool: boolean;
  has_gym: boolean;
  has_elevator: boolean;
  allows_cats: boolean;
  allows_dogs: boolean;
  /** A garage or lot; a unit's own `has_parking` still decides the parking filter. */
  garage: boolean;
  laundryRoom: boolean;
}

export function buildingFeatures(rng: Rng, placement: Placement, stories: number): BuildingFeatures {
  const sunny = placement.city.latitude < 36.5;
  return {
    has_pool: rng.chance(sunny ? 0.55 : 0.18),
    has_gym: rng.chance(stories >= 8 ? 0.8 : 0.45),
    has_elevator: stories >= 5 || rng.chance(0.25),
    allows_cats: rng.chance(0.8),
    allows_dogs: rng.chance(0.65),
    garage: rng.chance(placement.city.urban < 0.6 ? 0.7 : 0.35),
    laundryRoom: rng.chance(0.5),
  };
}

/** Free-text amenities; the pool, gym and elevator entries appear exactly when their flag is set. */
export function buildingAmenities(rng: Rng, f: BuildingFeatures): string[] {
  const list: string[] = [];
  if (f.has_gym) list.push(rng.pick(['Fitness center', '24-hour fitness center', 'Gym']));
  if (f.has_pool) list.push(rng.pick(['Pool', 'Rooftop pool', 'Outdoor pool', 'Heated pool']));
  if (f.has_elevator) list.push('Elevator');
  if (f.garage) list.push(rng.pick(['Garage parking', 'Parking garage', 'Surface parking lot']));
  if (f.laundryRoom) list.push('Laundry room');
  if (f.allows_dogs && rng.chance(0.5)) list.push(rng.pick(['Dog run', 'Pet spa']));
  list.push(...rng.sample(EXTRA_AMENITIES, rng.int(2, 5)));
  return list;
}

export function buildingDescription(name: string, stories: number, placement: Placement, amenities: string[], f: BuildingFeatures): string {
  const kind = stories >= 13 ? 'high-rise' : stories >= 5 ? 'mid-rise' : stories >= 3 ? 'low-rise' : 'two-story';
  const highlights = amenities.slice(0, 3).map((a) => a.toLowerCase());
  const pets =
    f.allows_cats && f.allows_dogs
      ? 'Cats and dogs are welcome in many units.'
      : f.allows_cats
        ? 'Cats are welcome in many units; dogs are not allowed.'
        : f.allows_dogs
          ? 'Dogs are welcome in many units; cats are not allowed.'
          : 'The building is pet-free.';
  return (
    `${name} is a ${stories}-story ${kind} building in ${placement.neighborhood.name}, ${placement.city.name}. ` +
    `${placement.neighborhood.description} Residents enjoy ${highlights.slice(0, -1).join(', ')} and ${highlights[highlights.length - 1]}. ` +
    `${pets} Every apartment comes fully furnished, with fast Wi-Fi, a stocked kitchen and linens, ` +
    'ready for stays from a few nights to a year or more.'
  );
}

/** Null for about a fifth of buildings (unrated); otherwise 3.0..5.0 with one decimal. */
export function buildingRating(rng: Rng): Rating | null {
  if (rng.chance(0.2)) return null;
  const bell = (rng.next() + rng.next() + rng.next()) / 3;
  const average = Math.round((3 + 2 * Math.pow(bell, 0.75)) * 10) / 10;
  const count = 3 + Math.floor(397 * Math.pow(rng.next(), 2));
  return { average, count };
}

const WALK_BANDS: Array<[number, string]> = [
  [90, "Walker's Paradise"],
  [70, 'Very Walkable'],
  [50, 'Somewhat Walkable'],
  [0, 'Car-Dependent'],
];
const TRANSIT_BANDS: Array<[number, string]> = [
  [90, "Rider's Paradise"],
  [70, 'Excellent Transit'],
  [50, 'Good Transit'],
  [25, 'Some Transit'],
  [0, 'Minimal Transit'],
];
const BIKE_BANDS: Array<[number, string]> = [
  [90, "Biker's Paradise"],
  [70, 'Very Bikeable'],
  [50, 'Bikeable'],
  [0, 'Somewhat Bikeable'],
];

function band(score: number, bands: Array<[number, string]>): string {
  return bands.find(([floor]) => score >= floor)?.[1] ?? bands[bands.length - 1][1];
}

function score(rng: Rng, base: number): number {
  return Math.max(3, Math.min(100, Math.round(base + rng.float(-12, 8))));
}

/** About a quarter of buildings have no scores yet (`{}`), a few only a walk score. */
export function locationScores(rng: Rng, urban: number): LocationScores {
  const kind = rng.weighted([
    ['none', 25],
    ['walk_only', 5],
    ['all', 70],
  ] as const);
  if (kind === 'none') return {};
  const walk = score(rng, 30 + urban * 70);
  const out: LocationScores = { walk_score: walk, walk_score_description: band(walk, WALK_BANDS) };
  if (kind === 'walk_only') return out;
  const transit = score(rng, 10 + urban * 85);
  const bike = score(rng, 45 + urban * 40);
  return {
    ...out,
    transit_score: transit,
    transit_score_description: band(transit, TRANSIT_BANDS),
    bike_score: bike,
    bike_score_description: band(bike, BIKE_BANDS),
  };
}
