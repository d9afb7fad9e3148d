/**
 * The routing of a search that a shape places and no market does (docs/decisions.md, "A shape reads the
 * shards of its markets"): the keys of the markets whose extent the shape's box meets. Undefined (every
 * shard) while the extents cannot be known; a box that meets no market reads one shard, which holds none
 * of its homes, so the answer is Elasticsearch's own empty one (its aggregations in their usual form).
 */
import type { Rectangle } from '../../kernel/map-tiles';
import type { RoutingKeysCache } from '../../kernel/store/home-routing';
import type { MarketExtents } from '../../kernel/store/market-extents';
import { marketsMeeting, routingList } from './search-area';

export async function areaRouting(
  area: Rectangle,
  extents: Pick<MarketExtents, 'current'>,
  routingKeys: Pick<RoutingKeysCache, 'keyOf'>,
): Promise<string | undefined> {
  // Extents that cannot be read leave the search to every shard, as if it had no area.
  const known = await extents.current().catch(() => null);
  if (known === null || known.length === 0) return undefined;
  const met = marketsMeeting(area, known);
  const markets = met.length > 0 ? met : [known.map((e) => e.market).sort()[0]];
  return routingList(await Promise.all(markets.map((m) => routingKeys.keyOf(m))));
}
