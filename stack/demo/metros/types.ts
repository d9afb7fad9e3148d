/** Shapes of the real metro data (market → display cities → neighborhoods). */

export interface NeighborhoodSeed {
  name: string;
  description: string;
}

export interface CitySeed {
  slug: string;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  /** 0..1: how dense and walkable; drives walk/transit/bike scores. */
  urban: number;
  /** Relative share of the market's buildings. */
  weight: number;
  /** Buildings lie within this many miles of the centre (at most 4; less where water is near). */
  radiusMiles: number;
  /** Real street names used for building addresses. */
  streets: string[];
  neighborhoods: NeighborhoodSeed[];
}

export interface MetroSeed {
  slug: string;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  /** Rent multiplier against a national furnished-rent baseline. */
  costLevel: number;
  /** Relative share of all buildings. */
  weight: number;
  cities: CitySeed[];
}

export function nb(name: string, description: string): NeighborhoodSeed {
  return { name, description };
}
