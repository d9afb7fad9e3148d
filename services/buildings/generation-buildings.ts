/**
 * Building records for the apartment read and the quote, kept while the index generation they were
 * read under is current (kernel/store/index-generation.ts): a building changed by a writer is served
 * as before until the indexer run that makes the change searchable, and as changed from the moment
 * that run starts writing. Its own record is never older than search's copy of it, and a read costs
 * the home's lookup alone. A building not found is not kept: one written since is served at once.
 */
import { LRUCache } from 'lru-cache';
import type { PropertyRecord } from '../kernel/inventory/records';
import type { Collections } from '../kernel/store/collections';
import type { IndexGeneration } from '../kernel/store/index-generation';
import type { CacheLookups } from '../kernel/metrics';

interface Kept {
  record: PropertyRecord;
  generation: number;
}

export class GenerationBuildings {
  private readonly kept: LRUCache<string, Kept>;
  /** Buildings served kept (hit) or read from MongoDB (miss), for the metrics. */
  readonly lookups: CacheLookups = { hit: 0, miss: 0 };

  constructor(
    private readonly c: Pick<Collections, 'properties'>,
    max = 20_000,
  ) {
    this.kept = new LRUCache<string, Kept>({ max });
  }

  /**
   * The building `id` as of `at`, a generation read before this call (GenerationReader); with none,
   * or while a run writes, it is read from MongoDB and not kept.
   */
  async byId(id: string, at: IndexGeneration | null): Promise<PropertyRecord | null> {
    const keep = at !== null && !at.applying;
    if (keep) {
      const hit = this.kept.get(id);
      if (hit?.generation === at.n) {
        this.lookups.hit++;
        return hit.record;
      }
    }
    this.lookups.miss++;
    const record = await this.c.properties.findOne({ _id: id });
    if (record && keep) this.kept.set(id, { record, generation: at.n });
    return record;
  }
}
