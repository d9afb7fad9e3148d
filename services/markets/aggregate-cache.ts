/**
 * Market-wide aggregations (market filters, market info) held for CACHE_TTL_SECONDS, like the
 * market records: they describe a whole market, change only when the indexer runs (once a
 * minute), and are asked for far more often than that. Concurrent requests for the same key
 * share one Elasticsearch request; a failed request is not cached (the caller gets the error).
 */
import { LRUCache } from 'lru-cache';

type Load = () => Promise<object>;

export class AggregateCache {
  private readonly cache: LRUCache<string, object, Load>;

  constructor(ttlMs: number, max = 1_000) {
    this.cache = new LRUCache<string, object, Load>({
      max,
      ttl: Math.max(1, ttlMs),
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  async get<T extends object>(key: string, load: () => Promise<T>): Promise<T> {
    const value = await this.cache.fetch(key, { context: load });
    if (value === undefined) throw new Error(`aggregate ${key} loaded nothing`);
    return value as T;
  }
}
