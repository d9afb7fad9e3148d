/**
 * The relaxation of a thin building search (spec: "Property card" envelope, `additional_properties`
 * and `additional_type`). When the first page holds fewer than THIN_SEARCH buildings, the search
 * is relaxed one way at a time, in this order, and the first way that finds buildings not already
 * shown fills `additional_properties` (docs/decisions.md, "Building search"):
 *
 * 1. extended_duration: a fixed stay whose units need a longer stay: any stay from the same move-in date;
 * 2. category_search: the amenity and category filters (pets ... deals_only) dropped;
 * 3. nearby: a point search with three times the radius (at most 100 miles);
 * 4. nearest_display_city: a city search moved to the market's nearest city with matching buildings;
 * 5. hot_cities: a dated search shown undated in the market's three cities with the most matching units.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { ADDITIONAL_TYPES } from '../tools/properties-output';
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import type { HomeDocument } from '../kernel/store/home-document';
import { collapsedPageBody } from './building-body';
import { unitSearchParams, type BuildingQuery } from './building-query';
import { FLAG_FIELDS, nearPoint, type SharedFilters } from './filters';
import type { PropertyCard } from './building-cards';
import { ExactSearch } from './run-search';
import { searchBuildings } from './run-building-search';
import type { SearchTransport } from './search-transport';

export type AdditionalType = (typeof ADDITIONAL_TYPES)[number];

/** Fewer buildings than this on the first page make a search thin. */
export const THIN_SEARCH = 3;
/** Additional buildings shown at most. */
export const ADDITIONAL_LIMIT = 10;
export const NEARBY_RADIUS_FACTOR = 3;
export const MAX_RADIUS_MILES = 100;
export const HOT_CITIES = 3;

type Relaxer = (q: BuildingQuery) => Promise<BuildingQuery | null>;

function withoutCategories(f: SharedFilters): SharedFilters | null {
  const kept: Record<string, unknown> = {};
  let dropped = false;
  for (const [k, v] of Object.entries(f)) {
    if (k in FLAG_FIELDS && v === true) dropped = true;
    else kept[k] = v;
  }
  return dropped ? (kept as SharedFilters) : null;
}

function relaxers(t: SearchTransport): Array<[AdditionalType, Relaxer]> {
  return [
    ['extended_duration', async (q) => (q.stay.kind === 'fixed' ? { ...q, stay: { kind: 'start_only', start_date: q.stay.start_date } } : null)],
    [
      'category_search',
      async (q) => {
        const filters = withoutCategories(q.filters);
        return filters ? { ...q, filters } : null;
      },
    ],
    [
      'nearby',
      async (q) => {
        const near = nearPoint(q.filters);
        if (!near || near.miles >= MAX_RADIUS_MILES) return null;
        return { ...q, filters: { ...q.filters, near_radius_miles: Math.min(MAX_RADIUS_MILES, near.miles * NEARBY_RADIUS_FACTOR) }, sort: 'distance' };
      },
    ],
    [
      'nearest_display_city',
      async (q) => {
        const city = q.location.city;
        if (!city) return null;
        // The nearest matching building outside the city names the city to show.
        const market: BuildingQuery = { ...q, location: { market: q.location.market, city: null }, extra: [...(q.extra ?? []), { bool: { must_not: [{ term: { city_slug: city.slug } }] } }] };
        const search = new ExactSearch(t, unitSearchParams(market));
        const sort: estypes.SortCombinations[] = [
          { _geo_distance: { location: { lat: city.latitude, lon: city.longitude }, order: 'asc', unit: 'mi', distance_type: 'arc' } },
          { property_id: 'asc' },
        ];
        const res = await search.send(collapsedPageBody(await search.filter(), sort, 0, 1));
        const slug = (res.hits.hits[0]?._source as HomeDocument | undefined)?.city_slug;
        const nearest = q.location.market.cities.find((c) => c.slug === slug);
        return nearest ? { ...q, location: { market: q.location.market, city: nearest } } : null;
      },
    ],
    [
      'hot_cities',
      async (q) => {
        if (q.stay.kind === 'undated') return null;
        const undated: BuildingQuery = { ...q, stay: { kind: 'undated' }, location: { market: q.location.market, city: null } };
        const search = new ExactSearch(t, unitSearchParams(undated));
        const res = await search.send({
          size: 0,
          query: { bool: { filter: await search.filter() } },
          aggs: { cities: { terms: { field: 'city_slug', size: HOT_CITIES } } },
        });
        const buckets = ((res.aggregations as Record<string, { buckets: Array<{ key: string }> }> | undefined)?.cities?.buckets ?? []).map((b) => b.key);
        return buckets.length ? { ...undated, extra: [...(undated.extra ?? []), { terms: { city_slug: buckets } }] } : null;
      },
    ],
  ];
}

/** Buildings for a thin search, the first relaxation that finds any; `shown` are left out. */
export async function relaxThinSearch(
  deps: Deps,
  t: SearchTransport,
  q: BuildingQuery,
  shown: readonly string[],
  limit: number,
  today: IsoDate,
): Promise<{ type: AdditionalType; cards: PropertyCard[] } | null> {
  const exclude: estypes.QueryDslQueryContainer[] = shown.length ? [{ bool: { must_not: [{ terms: { property_id: [...shown] } }] } }] : [];
  const base: BuildingQuery = { ...q, extra: [...(q.extra ?? []), ...exclude] };
  for (const [type, relax] of relaxers(t)) {
    const relaxed = await relax(base);
    if (!relaxed) continue;
    const page = await searchBuildings(deps, t, relaxed, 0, Math.min(limit, ADDITIONAL_LIMIT), today);
    if (page.cards.length > 0) return { type, cards: page.cards };
  }
  return null;
}
