/**
 * The relaxation of a thin building search (docs/contract.md, search_properties_tool rule 7, `additional_properties`
 * and `additional_type`). When the first page holds fewer than THIN_SEARCH buildings, the search
 * is relaxed one way at a time, in this order, and the first way that finds buildings not already
 * shown fills `additional_properties` (docs/decisions.md, "Building search"):
 *
 * 1. extended_duration: a fixed stay whose units need a longer stay: any stay from the same move-in date;
 * 2. category_search: the amenity and category filters (pets ... deals_only) dropped;
 * 3. nearby: a point search with three times the radius (at most MAX_RADIUS_MILES);
 * 4. nearest_display_city: a city search moved to the market's nearest city with matching buildings;
 * 5. hot_cities: a dated search shown undated in the market's three cities with the most matching units.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { ADDITIONAL_TYPES } from '../../contracts/properties-output';
import type { Deps } from '../../deps';
import { ApiError } from '../../kernel/errors';
import type { IsoDate } from '../../kernel/inventory/records';
import { collapsedPageBody, hotCitiesBody } from './building-body';
import { unitSearchParams, type BuildingQuery } from './building-query';
import type { PropertyCard } from './building-cards';
import { ExactSearch } from '../shared/exact-search';
import { hitDocument } from '../shared/hit-fields';
import { searchBuildings } from './run-building-search';
import type { SearchTransport } from '../shared/search-transport';
import { categorySearch, extendedDuration, HOT_CITIES, hotCities, hotCitiesLookup, nearby, nearestCityLookup, nearestDisplayCity } from './relax-steps';

export type AdditionalType = (typeof ADDITIONAL_TYPES)[number];

/** Fewer buildings than this on the first page make a search thin. */
export const THIN_SEARCH = 3;
/** Additional buildings shown at most. */
export const ADDITIONAL_LIMIT = 10;

type Relaxer = (q: BuildingQuery) => Promise<BuildingQuery | null>;

/** The steps in their order; the two that need the inventory ask Elasticsearch once, the rest are pure (./relax-steps.ts). */
function relaxers(t: SearchTransport): Array<[AdditionalType, Relaxer]> {
  return [
    ['extended_duration', async (q) => extendedDuration(q)],
    ['category_search', async (q) => categorySearch(q)],
    ['nearby', async (q) => nearby(q)],
    [
      'nearest_display_city',
      async (q) => {
        const lookup = nearestCityLookup(q);
        if (!lookup) return null;
        const search = new ExactSearch(t, unitSearchParams(lookup.query));
        const res = await search.send(collapsedPageBody(await search.filter(), lookup.sort, 0, 1));
        return nearestDisplayCity(q, res.hits.hits[0] ? hitDocument(res.hits.hits[0]).city_slug : undefined);
      },
    ],
    [
      'hot_cities',
      async (q) => {
        const undated = hotCitiesLookup(q);
        if (!undated) return null;
        const search = new ExactSearch(t, unitSearchParams(undated));
        const res = await search.send(hotCitiesBody(await search.filter(), HOT_CITIES));
        const buckets = ((res.aggregations as Record<string, { buckets: Array<{ key: string }> }> | undefined)?.cities?.buckets ?? []).map((b) => b.key);
        return hotCities(undated, buckets);
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
    // The steps share the request's pricing budget with the search they relax: once it is spent, the
    // search stands alone (its own answer is whole; the extra buildings are a courtesy).
    if (q.budget?.exhausted) return null;
    try {
      const relaxed = await relax(base);
      if (!relaxed) continue;
      const page = await searchBuildings(deps, t, relaxed, 0, Math.min(limit, ADDITIONAL_LIMIT), today);
      if (page.cards.length > 0) return { type, cards: page.cards };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'search_too_broad') return null;
      throw err;
    }
  }
  return null;
}
