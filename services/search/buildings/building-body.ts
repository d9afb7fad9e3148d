/**
 * The Elasticsearch requests of a building search, built by pure functions over the exact filter
 * of its units (../shared/exact-search.ts ExactSearch.filter): counts per building, a page of buildings in an
 * order ES can apply (collapse on property_id, or a terms order on an exact price), the units of
 * a page's buildings, and their units open at other dates.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { BuildingSort } from './building-query';
import { OTHER_DATES_LISTED } from './building-cards';
import { indexedPriceOf, REFERENCE_PRICE_FIELD } from '../shared/indexed-price';
import { availabilityClauses } from '../shared/stay-clauses';
import type { StayDates } from '../../stays/stay-dates';
import { TALLY_AGG } from '../shared/search-transport';
import { hitFields } from '../shared/hit-fields';

type Query = estypes.QueryDslQueryContainer;

/** Buildings counted per search; a market holds far fewer (past it, the count is estimated). */
export const BUILDINGS_COUNTED = 20_000;
/** Units fetched per request for a page's buildings. */
export const UNIT_BATCH = 2_000;

/**
 * The fields of a unit a building card shows and prices from (building-cards.ts UnitDocument): not
 * the apartment card's name, city, location or rating, which would triple what a page parses.
 */
/** The fields of a unit listed under "other dates" (building-cards.ts OtherDatesUnit). */
export const OTHER_DATES_FIELDS = ['unit_number', 'bedrooms', 'bathrooms', 'sqft', 'earliest_available_date'] as const;

export const UNIT_SOURCE = [
  'home_id',
  'slug',
  'unit_number',
  'property_id',
  'bedrooms',
  'bathrooms',
  'sqft',
  'earliest_available_date',
  'hero_photo_id',
  'pricing',
  'reference_price',
];

/** The exact price of the stay as an aggregation, where the index holds it (../shared/indexed-price.ts: not for fixed stays). */
export function priceMetric(stay: StayDates): { aggs: Record<string, estypes.AggregationsAggregationContainer>; path: string } | null {
  const price = indexedPriceOf(stay);
  switch (price.kind) {
    case 'exact':
      return { aggs: { price: { min: { field: price.field } } }, path: 'price' };
    case 'nested':
      // Only Flex tiers are nested prices: the aggregation is named after them.
      return {
        aggs: {
          flex: {
            nested: { path: price.path },
            aggs: { held: { filter: { bool: { filter: price.filter } }, aggs: { price: { min: { field: price.field } } } } },
          },
        },
        path: 'flex>held>price',
      };
    case 'band':
      return null;
  }
}

/**
 * Matching units in all (hits.total), the number of buildings they are in, and, when asked, every
 * building with its number of matching units (a descending price stream needs it to know when a
 * building is complete) or, for a price order the index can apply, the first `size` buildings by
 * their cheapest unit. Without the list, the buildings are counted in Elasticsearch: their terms
 * aggregation is named TALLY_AGG, whose buckets the transport leaves out of the answer.
 */
export function countsBody(
  filter: Query[],
  opts: {
    unitsPerBuilding: boolean;
    pricePage?: { order: 'asc' | 'desc'; size: number; metric: NonNullable<ReturnType<typeof priceMetric>> };
  },
): estypes.SearchRequest {
  const listed = opts.unitsPerBuilding ? UNITS_PER_BUILDING : TALLY_AGG;
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {
    [listed]: { terms: { field: 'property_id', size: BUILDINGS_COUNTED } },
    // Exact: the number of buckets of the terms aggregation (while they are fewer than BUILDINGS_COUNTED).
    [BUILDING_TOTAL]: { stats_bucket: { buckets_path: `${listed}>_count` } },
    building_estimate: { cardinality: { field: 'property_id', precision_threshold: 40_000 } },
  };
  const { pricePage } = opts;
  if (pricePage) {
    aggs.by_price = {
      terms: { field: 'property_id', size: pricePage.size, order: [{ [pricePage.metric.path]: pricePage.order }, { _key: 'asc' }] },
      aggs: pricePage.metric.aggs,
    };
  }
  return { size: 0, track_total_hits: true, query: { bool: { filter } }, aggs };
}

export const UNITS_PER_BUILDING = 'units_per_building';
const BUILDING_TOTAL = 'building_total';

export interface TermsBucket {
  key: string;
  doc_count: number;
}
interface TermsAgg {
  buckets?: TermsBucket[];
  sum_other_doc_count?: number;
}

/** What countsBody's aggregations say: buildings in all, and their matching units when listed. */
export function readCounts(aggregations: Record<string, unknown> | undefined): {
  totalProperties: number;
  unitsPerBuilding: Map<string, number>;
  byPrice: string[];
} {
  const aggs = aggregations ?? {};
  const terms = (aggs[UNITS_PER_BUILDING] ?? aggs[TALLY_AGG]) as TermsAgg | undefined;
  const counted = (aggs[BUILDING_TOTAL] as { count?: number } | undefined)?.count ?? 0;
  const totalProperties = (terms?.sum_other_doc_count ?? 0) > 0 ? ((aggs.building_estimate as { value?: number } | undefined)?.value ?? counted) : counted;
  const unitsPerBuilding = new Map((terms?.buckets ?? []).map((b) => [b.key, b.doc_count]));
  const byPrice = ((aggs.by_price as TermsAgg | undefined)?.buckets ?? []).map((b) => b.key);
  return { totalProperties, unitsPerBuilding, byPrice };
}

/** Sort of the units whose best one places its building (collapse keeps each building's first unit). */
export function buildingSortClauses(
  sort: Exclude<BuildingSort, 'price_asc' | 'price_desc'>,
  near: { lat: number; lon: number } | null,
): estypes.SortCombinations[] {
  const tie: estypes.SortCombinations = { property_id: 'asc' };
  switch (sort) {
    case 'rating_desc':
      return [{ rating_average: { order: 'desc', missing: '_last' } }, { rating_count: 'desc' }, tie];
    case 'distance':
      if (near) return [{ _geo_distance: { location: { lat: near.lat, lon: near.lon }, order: 'asc', unit: 'mi', distance_type: 'arc' } }, tie];
      return buildingSortClauses('recommended', null);
    case 'recommended':
      // Buildings with a special offer first, then the best rated (unrated last), then the cheapest reference price.
      return [{ has_active_offer: 'desc' }, { rating_average: { order: 'desc', missing: '_last' } }, { [REFERENCE_PRICE_FIELD]: 'asc' }, tie];
  }
}

/** One page of buildings in an order ES applies to units: each building placed by its best unit. */
export function collapsedPageBody(filter: Query[], sort: estypes.SortCombinations[], from: number, size: number): estypes.SearchRequest {
  return {
    track_total_hits: false,
    from,
    size,
    ...hitFields(['property_id', 'city_slug']),
    query: { bool: { filter } },
    collapse: { field: 'property_id' },
    sort,
  };
}

/** The matching units of some buildings, batch after batch. */
export function unitsBody(filter: Query[], propertyIds: readonly string[], stay: StayDates, after?: estypes.SortResults): estypes.SearchRequest {
  return {
    track_total_hits: false,
    size: UNIT_BATCH,
    // A Flex stay without a tier prices the cheapest tier the unit can hold: it needs the tiers' move-in dates.
    // The card holds every field of UNIT_SOURCE; the tiers are read from _source.
    ...hitFields(stay.kind === 'flex' && stay.committed_nights === null ? [...UNIT_SOURCE, 'flex_stays'] : UNIT_SOURCE),
    query: { bool: { filter: [...filter, { terms: { property_id: [...propertyIds] } }] } },
    sort: [{ home_id: 'asc' }],
    ...(after ? { search_after: after } : {}),
  };
}

/** Units of some buildings that meet every filter but the dates (base: the search without stay and price). */
export function otherDatesBody(base: Query[], stay: StayDates, propertyIds: readonly string[]): estypes.SearchRequest {
  return {
    size: 0,
    query: {
      bool: {
        filter: [...base, { terms: { property_id: [...propertyIds] } }],
        must_not: [{ bool: { filter: availabilityClauses(stay) } }],
      },
    },
    aggs: {
      other_dates: {
        terms: { field: 'property_id', size: propertyIds.length },
        aggs: {
          soonest: {
            top_hits: {
              size: OTHER_DATES_LISTED,
              sort: [{ earliest_available_date: { order: 'asc', missing: '_last' } }, { home_id: 'asc' }],
              ...hitFields(OTHER_DATES_FIELDS),
            },
          },
        },
      },
    },
  };
}

/** The cities with the most matching units, at most `size` (the hot_cities relaxation's lookup). */
export function hotCitiesBody(filter: Query[], size: number): estypes.SearchRequest {
  return { size: 0, query: { bool: { filter } }, aggs: { cities: { terms: { field: 'city_slug', size } } } };
}
