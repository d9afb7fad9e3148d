/**
 * Which shard of the homes index holds a home's document: the one its market's routing key routes
 * to. Every search of the request path names one market (a display city lies inside one), so it
 * reads that one shard instead of every market's documents; the market list and searches that cross
 * markets read them all (docs/search-index.md, "Shards and routing").
 *
 * A market's key is chosen by the indexer (indexer/routing-keys.ts) so that markets spread over the
 * shards one by one: by the market's own slug, some of them hash onto one shard, and a search pays
 * for every market of its shard. The keys travel with the index, in its mapping's `_meta`: the
 * indexer writes a market's key there before any of its homes, a rebuild copies the keys of the index
 * it replaces, and the service reads them from the index the alias points at. An index without keys
 * (built before them) was routed by slug, which is what a market without a key falls back to.
 */
import type { Client } from '@elastic/elasticsearch';

/** Market slug → routing key. */
export type RoutingKeys = Readonly<Record<string, string>>;

/** Where in an index's mapping `_meta` the keys are. */
export const ROUTING_KEYS_META = 'routing_keys';

export function homeRouting(marketSlug: string, keys: RoutingKeys): string {
  return Object.hasOwn(keys, marketSlug) ? keys[marketSlug] : marketSlug;
}

/** The keys in one index's mapping `_meta` (none when it has none). */
export function routingKeysOfMeta(meta: unknown): RoutingKeys {
  const keys = meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>)[ROUTING_KEYS_META] : undefined;
  if (keys === null || typeof keys !== 'object') return {};
  return Object.fromEntries(Object.entries(keys as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** The keys of the index (or indexes) an alias or index name points at; none when it does not exist. */
export async function readRoutingKeys(es: Client, index: string): Promise<RoutingKeys> {
  const exists = await es.indices.exists({ index });
  if (!exists) return {};
  const res = await es.indices.getMapping({ index });
  // One index behind the alias, normally; a rebuild's keys keep every key of the index it replaced.
  return Object.assign({}, ...Object.values(res).map((m) => routingKeysOfMeta(m.mappings?._meta)));
}

/** How long a market found without a key is routed by its slug before the keys are read again. */
const MISS_RECHECK_MS = 1_000;

/**
 * The service's copy of the keys of the index behind the alias: read at start, and read again when a
 * market has none there (an index built or keyed since), at most once a second per market. A key in
 * the copy stays right across alias swaps: a rebuild keeps every key of the index it replaces.
 */
export class RoutingKeysCache {
  private keys: RoutingKeys = {};
  private reading: Promise<RoutingKeys> | null = null;
  private readonly missedAt = new Map<string, number>();

  constructor(
    private readonly read: () => Promise<RoutingKeys>,
    private readonly now: () => number = Date.now,
  ) {}

  async keyOf(market: string): Promise<string> {
    if (Object.hasOwn(this.keys, market)) return this.keys[market];
    const missed = this.missedAt.get(market);
    // Without any key (no index yet, or one routed by slug) every search asks again: the first keyed index is met at once.
    if (missed !== undefined && Object.keys(this.keys).length > 0 && this.now() - missed < MISS_RECHECK_MS) return market;
    const keys = await this.reload();
    if (Object.hasOwn(keys, market)) {
      this.missedAt.delete(market);
      return keys[market];
    }
    this.missedAt.set(market, this.now());
    return market;
  }

  /** Reads the keys now (at start, so the first searches need not); a failure is left to the first search that needs them. */
  async warm(): Promise<void> {
    await this.reload().catch(() => undefined);
  }

  private reload(): Promise<RoutingKeys> {
    this.reading ??= this.read()
      .then((keys) => (this.keys = keys))
      .finally(() => (this.reading = null));
    return this.reading;
  }
}
