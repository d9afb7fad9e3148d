/**
 * The market family's searches, sent: the listed places over every shard, a market's filters and
 * statistics in its own shard and held in the aggregate cache (../../markets/aggregate-cache.ts).
 * The bodies and their reading are the pure functions beside this file.
 */
import type { Deps } from '../../deps';
import type { MarketRecord } from '../../kernel/inventory/records';
import type { MarketFilters } from '../../contracts/market-output';
import { homesTransport } from '../shared/search-transport';
import { buildListedPlacesBody, parseListedPlaces, type ListedPlaces } from './listed-places';
import { buildMarketFiltersBody, shapeMarketFilters } from './market-filters';
import { buildMarketInfoBody, shapeMarketInfo, type MarketStats } from './market-info';

type SearchDeps = Pick<Deps, 'es' | 'config' | 'esNodes' | 'routingKeys' | 'marketExtents'>;
type CachedDeps = SearchDeps & Pick<Deps, 'aggregates'>;

/** Which markets and cities search can return a home in right now (no market: every shard). */
export async function readListedPlaces(deps: SearchDeps): Promise<ListedPlaces> {
  return parseListedPlaces((await homesTransport(deps).aggregate(buildListedPlacesBody())).aggregations);
}

/** The filter values that match homes of the market. */
export function readMarketFilters(deps: CachedDeps, market: MarketRecord): Promise<MarketFilters> {
  return deps.aggregates.get(`market-filters:${market.slug}`, async () => {
    const { aggregations } = await homesTransport(deps, { market: market.slug }).aggregate(buildMarketFiltersBody(market.slug));
    return shapeMarketFilters(market, aggregations);
  });
}

/** The market's statistics. */
export function readMarketStats(deps: CachedDeps, market: MarketRecord): Promise<MarketStats> {
  return deps.aggregates.get(`market-info:${market.slug}`, async () => {
    const { aggregations, total } = await homesTransport(deps, { market: market.slug }).aggregate(buildMarketInfoBody(market.slug));
    return shapeMarketInfo(market, total ?? 0, aggregations);
  });
}
