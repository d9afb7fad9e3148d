/** Market records (with their display cities and neighborhoods) from the real metro data. */
import type { MarketRecord } from '../../services/kernel/inventory/records';
import { timestampOn } from './dates';
import { METROS, slugify, type CitySeed, type MetroSeed, type NeighborhoodSeed } from './metros';

/** Stable neighborhood id: unique across markets even where two cities share a name. */
export function neighborhoodId(citySlug: string, neighborhoodName: string): string {
  return `nb-${citySlug}-${slugify(neighborhoodName)}`;
}

/** One place a building can stand: a neighborhood of a display city of a market. */
export interface Placement {
  metro: MetroSeed;
  city: CitySeed;
  neighborhood: NeighborhoodSeed;
  neighborhoodId: string;
}

/** Every (market, city, neighborhood), in data order. */
export function placements(): Placement[] {
  return METROS.flatMap((metro) =>
    metro.cities.flatMap((city) =>
      city.neighborhoods.map((neighborhood) => ({
        metro,
        city,
        neighborhood,
        neighborhoodId: neighborhoodId(city.slug, neighborhood.name),
      })),
    ),
  );
}

export function buildMarkets(today: string): MarketRecord[] {
  return METROS.map((metro) => ({
    _id: metro.slug,
    slug: metro.slug,
    name: metro.name,
    state: metro.state,
    latitude: metro.latitude,
    longitude: metro.longitude,
    cities: metro.cities.map((c) => ({
      slug: c.slug,
      name: c.name,
      state: c.state,
      latitude: c.latitude,
      longitude: c.longitude,
    })),
    neighborhoods: metro.cities.flatMap((c) =>
      c.neighborhoods.map((n) => ({
        id: neighborhoodId(c.slug, n.name),
        slug: slugify(n.name),
        name: n.name,
        city_slug: c.slug,
        description: n.description,
      })),
    ),
    updated_at: timestampOn(today),
  }));
}
