/**
 * The relaxation steps of a thin building search, each a pure function of the query (and, for the
 * two that need to know the inventory, of what one lookup found): the `additional_type`
 * values (docs/contract.md, search_properties_tool rule 7) in the order they are tried (docs/decisions.md, "Building search"). The search that runs them
 * and stops at the first that finds buildings is ./relax-buildings.ts.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { BuildingQuery } from './building-query';
import { FLAG_FIELDS, nearPoint, type SharedFilters } from '../shared/filters';
import { MAX_RADIUS_MILES } from '../../kernel/limits/radius';

export const NEARBY_RADIUS_FACTOR = 3;
export const HOT_CITIES = 3;

/** 1. extended_duration: a fixed stay whose units need a longer stay becomes any stay from the same move-in date. */
export function extendedDuration(q: BuildingQuery): BuildingQuery | null {
  return q.stay.kind === 'fixed' ? { ...q, stay: { kind: 'start_only', start_date: q.stay.start_date } } : null;
}

/** 2. category_search: the amenity and category filters (pets … deals_only) dropped; null when none was set. */
export function categorySearch(q: BuildingQuery): BuildingQuery | null {
  const kept: Record<string, unknown> = {};
  let dropped = false;
  for (const [k, v] of Object.entries(q.filters)) {
    if (k in FLAG_FIELDS && v === true) dropped = true;
    else kept[k] = v;
  }
  return dropped ? { ...q, filters: kept as SharedFilters } : null;
}

/** 3. nearby: a point search with three times the radius, at most MAX_RADIUS_MILES, nearest first. */
export function nearby(q: BuildingQuery): BuildingQuery | null {
  const near = nearPoint(q.filters);
  if (!near || near.miles >= MAX_RADIUS_MILES) return null;
  return { ...q, filters: { ...q.filters, near_radius_miles: Math.min(MAX_RADIUS_MILES, near.miles * NEARBY_RADIUS_FACTOR) }, sort: 'distance' };
}

/** 4a. nearest_display_city, the lookup: the same search in the rest of the market, nearest building to the city first. */
export function nearestCityLookup(q: BuildingQuery): { query: BuildingQuery; sort: estypes.SortCombinations[] } | null {
  const city = q.location?.city;
  if (!q.location || !city) return null;
  return {
    query: {
      ...q,
      location: { market: q.location.market, city: null },
      extra: [...(q.extra ?? []), { bool: { must_not: [{ term: { city_slug: city.slug } }] } }],
    },
    sort: [
      { _geo_distance: { location: { lat: city.latitude, lon: city.longitude }, order: 'asc', unit: 'mi', distance_type: 'arc' } },
      { property_id: 'asc' },
    ],
  };
}

/** 4b. nearest_display_city: the search moved to the city the lookup found, when the market names it. */
export function nearestDisplayCity(q: BuildingQuery, foundCitySlug: string | undefined): BuildingQuery | null {
  const market = q.location?.market;
  const nearest = market?.cities.find((c) => c.slug === foundCitySlug);
  return market && nearest ? { ...q, location: { market, city: nearest } } : null;
}

/** 5a. hot_cities, the lookup: a dated search undated, over the whole market (none for a polygon alone: no market to look in). */
export function hotCitiesLookup(q: BuildingQuery): BuildingQuery | null {
  if (q.stay.kind === 'undated' || !q.location) return null;
  return { ...q, stay: { kind: 'undated' }, location: { market: q.location.market, city: null } };
}

/** 5b. hot_cities: that undated search in the cities with the most matching units (at most three). */
export function hotCities(lookup: BuildingQuery, citySlugs: readonly string[]): BuildingQuery | null {
  return citySlugs.length ? { ...lookup, extra: [...(lookup.extra ?? []), { terms: { city_slug: [...citySlugs] } }] } : null;
}
