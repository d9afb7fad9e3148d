/**
 * Building records for the building search's cards, held for CACHE_TTL_SECONDS like the market
 * records: a card shows a building's name, address, amenities, photos, description and rating,
 * which change far less often than the index runs, so a page of buildings already shown costs no
 * MongoDB read. Units and prices always come from the index; the apartment read and the quote keep
 * their buildings by index generation instead (./generation-buildings.ts).
 */
import { LRUCache } from 'lru-cache';
import type { PropertyRecord } from '../kernel/inventory/records';
import type { Collections } from '../kernel/store/collections';
import type { CacheLookups } from '../kernel/metrics';

export class BuildingRecords {
  private readonly cache: LRUCache<string, PropertyRecord>;
  /** Records found kept (hit) or read from MongoDB (miss), for the metrics. */
  readonly lookups: CacheLookups = { hit: 0, miss: 0 };

  constructor(
    private readonly c: Pick<Collections, 'properties'>,
    ttlMs: number,
    max = 20_000,
  ) {
    this.cache = new LRUCache<string, PropertyRecord>({ max, ttl: Math.max(1, ttlMs) });
  }

  /** The records of `ids` that exist: cached ones as they are, the rest in one `_id $in` read. */
  async many(ids: readonly string[]): Promise<Map<string, PropertyRecord>> {
    const found = new Map<string, PropertyRecord>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = this.cache.get(id);
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    this.lookups.hit += found.size;
    this.lookups.miss += missing.length;
    if (missing.length > 0) {
      for (const record of await this.c.properties.find({ _id: { $in: missing } }).toArray()) {
        this.cache.set(record._id, record);
        found.set(record._id, record);
      }
    }
    return found;
  }
}
