/**
 * The market records (a dozen documents, read on nearly every call), held in the service for a
 * short, explicit time (CACHE_TTL_SECONDS) instead of being read from MongoDB per request. While
 * MongoDB does not answer, the last snapshot keeps serving.
 */
import { LRUCache } from 'lru-cache';
import type { MarketRecord } from '../kernel/inventory/records';
import type { Collections } from '../kernel/store/collections';
import type { IndexGeneration } from '../kernel/store/index-generation';

export interface MarketSnapshot {
  bySlug: ReadonlyMap<string, MarketRecord>;
  /** City slug → the market that contains it. */
  byCity: ReadonlyMap<string, MarketRecord>;
}

function snapshot(records: MarketRecord[]): MarketSnapshot {
  const bySlug = new Map(records.map((m) => [m.slug, m]));
  const byCity = new Map(records.flatMap((m) => m.cities.map((c) => [c.slug, m] as const)));
  return { bySlug, byCity };
}

/**
 * A whole small collection, cached for ttlMs, refreshed once however many requests ask at once.
 * A snapshot of an empty collection (before the first seed or import) is not kept: the next request
 * reads again, so the first records written are served at once, not a time to live later.
 */
export function cachedSnapshot<T extends object>(load: () => Promise<T>, ttlMs: number, isEmpty: (snapshot: T) => boolean): () => Promise<T> {
  const cache = new LRUCache<'all', T>({
    max: 1,
    ttl: Math.max(1, ttlMs),
    fetchMethod: load,
    // A store outage does not empty the cache: the last good snapshot answers until it is back.
    allowStaleOnFetchRejection: true,
    noDeleteOnFetchRejection: true,
  });
  return async () => {
    const value = await cache.fetch('all');
    if (!value) throw new Error('snapshot load returned nothing');
    if (isEmpty(value)) cache.delete('all');
    return value;
  };
}

export class MarketDirectory {
  private readonly current: () => Promise<MarketSnapshot>;
  private readonly load: () => Promise<MarketSnapshot>;
  /** The snapshot read after the latest generation asked for (bySlugAt). */
  private atGeneration: { n: number; snapshot: Promise<MarketSnapshot> } | null = null;

  constructor(c: Collections, ttlMs: number) {
    // The markets collection is a few dozen documents: reading it whole is a small, bounded read.
    this.load = async () => snapshot(await c.markets.find({}, { limit: 1_000 }).toArray());
    this.current = cachedSnapshot(this.load, ttlMs, (s) => s.bySlug.size === 0);
  }

  async bySlug(slug: string): Promise<MarketRecord | null> {
    return (await this.current()).bySlug.get(slug) ?? null;
  }

  /**
   * The market as the apartment read needs it: from a snapshot read after a generation at least as
   * late as `at` (kernel/store/index-generation.ts), so never older than search's copy; one read per
   * generation per copy. While a run writes, read now; without a generation, the cached snapshot.
   */
  async bySlugAt(slug: string, at: IndexGeneration | null): Promise<MarketRecord | null> {
    if (at === null) return this.bySlug(slug);
    if (at.applying) return (await this.load()).bySlug.get(slug) ?? null;
    let kept = this.atGeneration;
    if (kept === null || kept.n < at.n) {
      const read = this.load();
      kept = this.atGeneration = { n: at.n, snapshot: read };
      // A failed read is not kept: the next request reads again.
      read.catch(() => {
        if (this.atGeneration?.snapshot === read) this.atGeneration = null;
      });
    }
    return (await kept.snapshot).bySlug.get(slug) ?? null;
  }

  /** The market a market slug or a display-city slug belongs to. */
  async containing(slug: string): Promise<MarketRecord | null> {
    const s = await this.current();
    return s.bySlug.get(slug) ?? s.byCity.get(slug) ?? null;
  }

  async all(): Promise<MarketRecord[]> {
    return [...(await this.current()).bySlug.values()];
  }
}
