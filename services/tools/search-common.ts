/**
 * What search_apartments_tool and search_apartments_on_map share: run the search, shape each home
 * and the envelope (docs/contract.md, "search_apartments_on_map": the same filters, dates and
 * per-apartment fields).
 */
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import { nearPoint } from '../search/shared/filters';
import { flexSearchUrl, shapeResult, type SearchResultItem } from '../search/apartments/result-shape';
import type { SearchFound } from '../search/apartments/search-homes';
import { searchApartments, type TripRecorder } from '../search/apartments/apartment-search';
import type { SearchStats } from '../search/shared/exact-search';
import type { ResolvedLocation } from '../search/shared/location';
import type { SearchAggregations } from '../search/shared/search-body';
import type { PriceUnit, SearchParams } from '../search/shared/search-params';
import type { SearchEnvelope } from '../contracts/search-output';
import { facetUnit, readSearchParamsIn, type SearchArgs } from './search-args';
import { badRequest } from '../kernel/errors';
import { resolveLocation } from '../search/shared/location';
import { readPolygon, type PolygonArgs } from '../search/shared/polygon';

/** The envelope's place: the market and display city searched. */
export type PlaceFields<L extends ResolvedLocation | null> = L extends ResolvedLocation
  ? Pick<SearchEnvelope, 'market' | 'display_city'>
  : { market: SearchEnvelope['market'] | null; display_city: SearchEnvelope['display_city'] };

export interface SearchAnswer {
  /** The envelope but for its place (placeFields). */
  envelope: Omit<SearchEnvelope, 'market' | 'display_city'>;
  homes: SearchResultItem[];
  /** For the embedded hero photos: the photo of each home, in order. */
  heroes: Array<{ slug: string; photoId: string | null }>;
  stats: SearchStats;
  /** The search itself: its aggregations and its price book (the map's clusters read both). */
  found: SearchFound;
}

export function placeFields(location: ResolvedLocation): Pick<SearchEnvelope, 'market' | 'display_city'>;
export function placeFields(location: ResolvedLocation | null): PlaceFields<ResolvedLocation | null>;
export function placeFields(location: ResolvedLocation | null): PlaceFields<ResolvedLocation | null> {
  if (location === null) return { market: null, display_city: null };
  const { market, city } = location;
  return { market: { slug: market.slug }, display_city: city ? { slug: city.slug, name: city.name, state: city.state } : null };
}

export interface RunOptions {
  nearLabel?: string;
  /** Sees each round trip's bodies (the bench replays them). */
  record?: TripRecorder;
  /** Computed over every matching home in the request that counts them (the map's clusters). */
  aggs?: SearchAggregations;
  /** The facet counts too, with price buckets in this unit (the unit of the search's price limits). */
  facets?: PriceUnit;
}

/** The search's homes `[offset, offset + size)`, shaped, with the envelope but for its place. */
export async function runSearch(
  deps: Deps,
  params: SearchParams,
  today: IsoDate,
  offset: number,
  size: number,
  options: RunOptions = {},
): Promise<SearchAnswer> {
  const near = nearPoint(params.filters);
  const found = await searchApartments(deps, params, offset, size, today, { record: options.record, aggs: options.aggs, facets: options.facets });
  const ctx = { publicBaseUrl: deps.config.publicBaseUrl, siteBaseUrl: deps.config.siteBaseUrl, today, stay: params.stay, near };
  const homes = found.homes.map((h) => ({
    ...shapeResult(h.doc, h.priced, ctx),
    ...(found.matched ? { matched: found.matched.get(h.doc.home_id) ?? [] } : {}),
  }));
  const place = params.location === null ? null : (params.location.city?.slug ?? params.location.market.slug);
  return {
    envelope: {
      total_count: found.total,
      count: homes.length,
      ...(found.facets ? { facets: found.facets } : {}),
      ...(homes.some((h) => h.eligible_for_flex) ? { flex_search_url: flexSearchUrl(deps.config.siteBaseUrl, place, params.stay) } : {}),
      ...(near
        ? { near: { latitude: near.lat, longitude: near.lon, radius_miles: near.miles, ...(options.nearLabel ? { label: options.nearLabel } : {}) } }
        : {}),
    },
    homes,
    heroes: found.homes.map((h) => ({ slug: h.doc.slug, photoId: h.doc.hero_photo_id })),
    stats: found.stats,
    found,
  };
}

/** A list or building search without a place or a polygon. */
export const NO_PLACE =
  'A location is required: pass market (a display-city or market slug from list_markets_tool), scope.display_city / scope.market, ' +
  'or a polygon to search inside.';

/** The list search of some arguments (a place, or a polygon standing in for it), with its place in the envelope. */
export async function answerSearch(
  deps: Deps,
  args: SearchArgs & PolygonArgs,
  today: IsoDate,
  offset: number,
  size: number,
  record?: TripRecorder,
  signal?: AbortSignal,
): Promise<SearchAnswer & { envelope: Omit<SearchEnvelope, 'market'> & PlaceFields<ResolvedLocation | null> }> {
  const { polygon: drawn, ...searchArgs } = args;
  const polygon = readPolygon(drawn);
  const named = searchArgs.market !== undefined || searchArgs.scope !== undefined;
  if (!named && polygon === null) throw badRequest('invalid_parameters', NO_PLACE);
  const place = () => (named ? resolveLocation(deps, searchArgs) : Promise.resolve(null));
  const params = await readSearchParamsIn(deps, searchArgs, today, place, signal);
  const answer = await runSearch(deps, { ...params, polygon }, today, offset, size, {
    nearLabel: args.near_label,
    record,
    facets: facetUnit(args, params.stay),
  });
  return { ...answer, envelope: { ...placeFields(params.location), ...answer.envelope } };
}
