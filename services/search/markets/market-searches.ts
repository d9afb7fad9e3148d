/**
 * The market family's searches, sent: the listed places over every shard, a market's filters and
 * statistics in its own shard and held in the aggregate cache (../../markets/aggregate-cache.ts).
 * The bodies and their reading are the pure functions beside this file.
 */
import type { Deps } from '../../deps';
import type { MarketRecord } from '../../kernel/inventory/records';
import type { MarketFilters } from '../../contracts/market-output';
import { homesTransport } from '../shared/search-transport';
import { unmetered } from '../../kernel/store/es-time';
import { buildListedPlacesBody, parseListedPlaces } from './listed-places';
import type { ListedPlaces } from '../../kernel/store/listed-places';
import { buildMarketFiltersBody, shapeMarketFilters } from './market-filters';
import { buildMarketInfoBody, shapeMarketInfo, type MarketStats } from './market-info';

type SearchDeps = Pick<Deps, 'es' | 'config' | 'esNodes' | 'routingKeys' | 'marketExtents'>;
type CachedDeps = SearchDeps & Pick<Deps, 'aggregates'>;

/**
 * Which markets and cities search can return a home in right now (no market: every shard), read once per
 * index generation for every request, as the markets' extents are: the listing is the first call of most
 * clients, and an aggregation over every shard (about 300 shard-ms, 1,200 on a node just started) would
 * spend a quarter of a client's minute of points, or all of it, on the first question it asks.
 */
export function readListedPlaces(deps: SearchDeps & Pick<Deps, 'listedPlaces'>): Promise<ListedPlaces> {
  return deps.listedPlaces.answer('all', () =>
    unmetered(async () => parseListedPlaces((await homesTransport(deps).aggregate(buildListedPlacesBody())).aggregations)),
  );
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
