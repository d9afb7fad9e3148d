/**
 * The physical units of a building: unit numbers unique within it, floors (about 15% on the
 * ground floor), bedrooms weighted to one and two, and bathrooms and size to match.
 */
import type { BuildingPlan } from './properties';
import type { Rng } from './prng';

export interface UnitLayout {
  unit_number: string;
  floor: number;
  bedrooms: number;
  bathrooms: number;
  sqft: number;
}

export const FIRST_FLOOR_SHARE = 0.15;
const BEDROOM_WEIGHTS: ReadonlyArray<readonly [number, number]> = [
  [0, 12],
  [1, 38],
  [2, 32],
  [3, 13],
  [4, 5],
];
const SQFT_BY_BEDROOMS: ReadonlyArray<readonly [number, number]> = [
  [380, 600],
  [550, 850],
  [850, 1250],
  [1150, 1700],
  [1500, 2300],
];

export function unitLayouts(rng: Rng, plan: BuildingPlan): UnitLayout[] {
  const perFloor = new Map<number, number>();
  const units: UnitLayout[] = [];
  for (let i = 0; i < plan.homeCount; i++) {
    const floor = rng.chance(FIRST_FLOOR_SHARE) ? 1 : rng.int(2, plan.stories);
    const k = perFloor.get(floor) ?? 0;
    perFloor.set(floor, k + 1);
    const bedrooms = rng.weighted(BEDROOM_WEIGHTS);
    const bathrooms = bathroomsFor(rng, bedrooms);
    const [lo, hi] = SQFT_BY_BEDROOMS[bedrooms];
    units.push({
      unit_number: unitNumber(plan.unitStyle, floor, k),
      floor,
      bedrooms,
      bathrooms,
      sqft: Math.round((rng.int(lo, hi) + (bathrooms - 1) * 40) / 5) * 5,
    });
  }
  return units;
}

function bathroomsFor(rng: Rng, bedrooms: number): number {
  switch (bedrooms) {
    case 0:
      return 1;
    case 1:
      return rng.chance(0.1) ? 2 : 1;
    case 2:
      return rng.chance(0.7) ? 2 : 1;
    case 3:
      return rng.chance(0.4) ? 3 : 2;
    default:
      return rng.chance(0.7) ? 3 : 2;
  }
}

/** "4B" (letter style) or "402" (number style); the k-th unit of its floor. */
function unitNumber(style: BuildingPlan['unitStyle'], floor: number, k: number): string {
  if (style === 'number') return `${floor}${String(k + 1).padStart(2, '0')}`;
  const letter = String.fromCharCode(65 + (k % 26));
  return k < 26 ? `${floor}${letter}` : `${floor}${letter}${Math.floor(k / 26)}`;
}
