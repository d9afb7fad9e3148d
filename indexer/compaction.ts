/**
 * Compaction of the live index after an incremental run: its shards merged back to one segment each.
 *
 * An incremental run leaves small segments beside each shard's large one (one per refresh or
 * indexing-buffer flush) and deleted documents in the large one. Lucene's merge policy never folds a
 * small segment into a much larger one (it skips merges that do not grow the largest input by half),
 * so they stay until their own tier fills. Every segment is searched on its own: at 100,000 homes
 * three or four segments per shard made the dated market search 0.7 ms slower at its 2.3 ms
 * (docs/performance.md). The merge rewrites the shards the run touched (the whole 446 MB index at
 * 100,000 homes: 8-11 s on two threads), so the run does not wait for it: its changes are searchable
 * at its own refresh, and the merged segments replace the small ones when the merge ends (a refresh
 * then, and the index's scheduled refreshes if this process is gone by then).
 *
 * A shard above Elasticsearch's largest merged segment (5 GB, `index.merge.policy.max_merged_segment`)
 * is left to the merge policy: a forced segment bigger than that would never be merged again until
 * mostly deleted.
 */
import type { Client } from '@elastic/elasticsearch';

/** Elasticsearch's default `index.merge.policy.max_merged_segment`. */
export const MAX_COMPACTED_SHARD_BYTES = 5 * 2 ** 30;

/** One copy of a shard, as the index stats describe it. */
export interface ShardCopy {
  segments: number;
  bytes: number;
}

export type CompactionNeed = 'tidy' | 'fragmented' | 'too-large';

/**
 * Whether the index is worth merging: some copy has several segments, and no shard is too big to force.
 * Deleted documents alone do not count: right after the writes Elasticsearch still keeps them for its
 * recovery (soft deletes under a retention lease), so a merge then could not drop them; the next
 * merge of that shard does.
 */
export function compactionNeed(copies: readonly ShardCopy[], maxShardBytes = MAX_COMPACTED_SHARD_BYTES): CompactionNeed {
  if (copies.some((s) => s.bytes > maxShardBytes)) return 'too-large';
  return copies.some((s) => s.segments > 1) ? 'fragmented' : 'tidy';
}

/** Every shard copy of the index (or alias) with its segments and size. */
export async function shardCopies(es: Client, index: string): Promise<ShardCopy[]> {
  const res = await es.indices.stats({ index, metric: ['segments', 'store'], level: 'shards' });
  const copies: ShardCopy[] = [];
  for (const stats of Object.values(res.indices ?? {})) {
    for (const shard of Object.values(stats.shards ?? {})) {
      for (const copy of shard) {
        copies.push({
          segments: copy.segments?.count ?? 0,
          bytes: copy.store?.size_in_bytes ?? 0,
        });
      }
    }
  }
  return copies;
}

/** What became of a merge started after a run: done, not needed, or failed (the next run tries again). */
export type CompactionOutcome = CompactionNeed | { failed: string };

/**
 * Merges the index behind the alias to one segment per shard when it is fragmented, then refreshes it
 * so searches read the merged segments. Shards already in one segment without deletions cost nothing.
 * Never rejects: a merge that fails leaves the index as the run left it, correct and only slower.
 */
export async function compactLiveIndex(es: Client, alias: string): Promise<CompactionOutcome> {
  try {
    const need = compactionNeed(await shardCopies(es, alias));
    if (need === 'fragmented') {
      await es.indices.forcemerge({ index: alias, max_num_segments: 1 }, { requestTimeout: 30 * 60_000 });
      await es.indices.refresh({ index: alias });
    }
    return need;
  } catch (err) {
    return { failed: (err as Error).message };
  }
}
