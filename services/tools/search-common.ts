/**
 * What search_apartments_tool and search_apartments_on_map share: read the arguments, run the
 * search, shape each home and the envelope (spec: "Search result", "search_apartments_on_map":
 * identical filters and per-apartment fields).
 */
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import { nearPoint } from '../search/shared/filters';
import { flexSearchUrl, shapeResult, type SearchResultItem } from '../search/apartments/result-shape';
import { searchHomes } from '../search/apartments/search-homes';
import type { SearchStats } from '../search/shared/exact-search';
import { homesTransport, type RoundTrip } from '../search/shared/search-transport';
import type { SearchEnvelope } from '../contracts/search-output';
import { readSearchParams, type SearchArgs } from './search-args';

export interface SearchAnswer {
  envelope: SearchEnvelope;
  homes: SearchResultItem[];
  /** For the embedded hero photos: the photo of each home, in order. */
  heroes: Array<{ slug: string; photoId: string | null }>;
  stats: SearchStats;
}

export async function answerSearch(
  deps: Deps,
  args: SearchArgs,
  today: IsoDate,
  offset: number,
  size: number,
  record?: (trip: RoundTrip) => void,
): Promise<SearchAnswer> {
  const params = await readSearchParams(deps, args, today);
  const near = nearPoint(params.filters);
  const found = await searchHomes(homesTransport(deps, { market: params.location.market.slug, record }), params, offset, size, today);
  const ctx = { publicBaseUrl: deps.config.publicBaseUrl, siteBaseUrl: deps.config.siteBaseUrl, today, stay: params.stay, near };
  const homes = found.homes.map((h) => shapeResult(h.doc, h.priced, ctx));
  const { market, city } = params.location;
  return {
    envelope: {
      market: { slug: market.slug },
      display_city: city ? { slug: city.slug, name: city.name, state: city.state } : null,
      total_count: found.total,
      count: homes.length,
      ...(homes.some((h) => h.eligible_for_flex) ? { flex_search_url: flexSearchUrl(deps.config.siteBaseUrl, city?.slug ?? market.slug, params.stay) } : {}),
      ...(near
        ? { near: { latitude: near.lat, longitude: near.lon, radius_miles: near.miles, ...(args.near_label ? { label: args.near_label } : {}) } }
        : {}),
    },
    homes,
    heroes: found.homes.map((h) => ({ slug: h.doc.slug, photoId: h.doc.hero_photo_id })),
    stats: found.stats,
  };
}
