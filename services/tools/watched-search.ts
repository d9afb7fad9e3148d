/**
 * A watch's search, run by the service's own search code (the same pricing and availability as
 * search_apartments_tool): all its matches when it is saved, and, for the matching of changed homes,
 * the same search restricted to those homes' ids. The arguments are read by search_apartments_tool's
 * own schema (watch_search_tool's `search`), without paging.
 */
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import { badRequest } from '../kernel/errors';
import { resolveLocation } from '../search/shared/location';
import { readPolygon, type PolygonArgs } from '../search/shared/polygon';
import { readSearchParamsIn, type SearchArgs } from './search-args';
import { NO_PLACE, runSearch } from './search-common';
import { searchApartmentsTool } from './search-apartments';
import type { ObjectSchema } from './validate';
import type { SearchParams } from '../search/shared/search-params';
import { onlyHomes } from '../search/shared/home-ids';

/** Most homes a watch may match when it is saved: a broader search is refused as too broad (narrow it). */
export const WATCH_MAX_MATCHES = 1_000;

const PAGE = 250;

/** search_apartments_tool's arguments but its paging and photos: what a watch saves. */
export const watchedSearchSchema: ObjectSchema = (() => {
  const { properties, ...rest } = searchApartmentsTool.inputSchema as { properties: Record<string, unknown> } & Record<string, unknown>;
  const { page: _page, per_page: _perPage, include_hero_images: _images, ...kept } = properties;
  return {
    ...rest,
    properties: kept,
    description: 'The arguments of search_apartments_tool (without page, per_page and include_hero_images).',
  } as ObjectSchema;
})();

export type WatchedArgs = SearchArgs & PolygonArgs;

/** One match: the home's card as the search shows it, and the all-in price it shows for the stay. */
export interface WatchedMatch {
  homeId: string;
  slug: string;
  price: number;
  card: Record<string, unknown>;
}

/** The search's parameters, its place resolved (the watch's search is checked as the search checks it). */
export async function watchedParams(deps: Deps, args: WatchedArgs, today: IsoDate): Promise<SearchParams> {
  const { polygon: drawn, ...searchArgs } = args;
  const polygon = readPolygon(drawn);
  const named = searchArgs.market !== undefined || searchArgs.scope !== undefined;
  if (!named && polygon === null) throw badRequest('invalid_parameters', NO_PLACE);
  const params = await readSearchParamsIn(deps, searchArgs, today, () => (named ? resolveLocation(deps, searchArgs) : Promise.resolve(null)));
  return { ...params, polygon };
}

/** Every home the search matches now (at most `limit`), and its total; homes limits it to those ids. */
export async function watchedMatches(
  deps: Deps,
  args: WatchedArgs,
  today: IsoDate,
  opts: { homeIds?: readonly string[]; limit?: number } = {},
): Promise<{ total: number; matches: WatchedMatch[] }> {
  const base = await watchedParams(deps, args, today);
  const params: SearchParams = opts.homeIds ? { ...base, extra: [...(base.extra ?? []), onlyHomes(opts.homeIds)] } : base;
  const limit = opts.limit ?? WATCH_MAX_MATCHES;
  const matches: WatchedMatch[] = [];
  let total: number;
  for (let offset = 0; ; offset += PAGE) {
    const answer = await runSearch(deps, params, today, offset, PAGE);
    total = answer.envelope.total_count;
    if (total > limit) return { total, matches: [] };
    answer.found.homes.forEach((h, i) => {
      const card = answer.homes[i] as unknown as Record<string, unknown>;
      matches.push({ homeId: h.doc.home_id, slug: h.doc.slug, price: Number(card.display_price_with_discount), card });
    });
    if (answer.homes.length < PAGE || offset + PAGE >= total) break;
  }
  return { total, matches };
}
