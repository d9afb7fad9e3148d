/**
 * Compaction of the live index after an incremental run: its shards merged back to one segment each.
 *
 * An incremental run leaves small segments beside each shard's large one (one per refresh or
 * indexing-buffer flush) and deleted documents in the large one. Lucene's merge policy never folds a
 * small segment into a much larger one (it skips merges that do not grow the largest input by half),
 * so they stay until their own tier fills. Every segment is searched on its own: at 100,000 homes
 * three or four segments per shard made the dated market search 0.7 ms slower at its 2.3 ms
 * (docs/performance.md). The merge asks for every shard; those already in one segment without
 * deletions are left as they are, so it rewrites about the shards the run touched (the whole 446 MB
 * index at 100,000 homes: 8-11 s on two threads). The run does not wait for it: its changes are searchable
 * at its own refresh, and the merged segments replace the small ones when the merge ends (a refresh
 * then, and the index's scheduled refreshes if this process is gone by then).
 *
 * A shard above Elasticsearch's largest merged segment (5 GB, `index.merge.policy.max_merged_segment`)
 * is left to the merge policy: a forced segment bigger than that would never be merged again until
 * mostly deleted.
 */
import { errors, type Client } from '@elastic/elasticsearch';
import { aliasTargets } from './es-admin';
import { withLongCalls } from './long-calls';

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

/**
 * What became of a merge started after a run: done, not needed, `retired` (a rebuild replaced the
 * index meanwhile: nothing to do), or failed (the next run that writes tries again).
 */
export type CompactionOutcome = CompactionNeed | 'retired' | { failed: string };

/** What a merge came to, in words (the worker's log and `npm run reindex` say it alike). */
export function describeCompaction(outcome: CompactionOutcome): string {
  if (typeof outcome === 'object')
    return `merging the live index after the run failed (${outcome.failed}); it stays correct, and the next run that writes tries again`;
  const said: Record<CompactionNeed | 'retired', string> = {
    fragmented: 'live index merged back to one segment per shard',
    tidy: 'live index already one segment per shard',
    'too-large': 'live index left to the merge policy (a shard above 5 GB)',
    retired: 'live index replaced by a rebuild meanwhile',
  };
  return said[outcome];
}

/** The merge under way per alias: a run that ends while one is going joins it instead of queueing another. */
const underway = new Map<string, Promise<CompactionOutcome>>();

/**
 * Merges the index behind the alias to one segment per shard when it is fragmented, then refreshes it
 * so searches read the merged segments. The alias is resolved once: a rebuild that swaps it meanwhile
 * leaves this merge on the index it started on (`retired` once that index is deleted), never on the
 * new one. Never rejects: a merge that fails leaves the index as the run left it, correct and only slower.
 */
export function compactLiveIndex(es: Client, alias: string): Promise<CompactionOutcome> {
  const going = underway.get(alias);
  if (going) return going;
  const merge = mergeOnce(es, alias).finally(() => underway.delete(alias));
  underway.set(alias, merge);
  return merge;
}

async function mergeOnce(es: Client, alias: string): Promise<CompactionOutcome> {
  try {
    const [index] = await aliasTargets(es, alias);
    if (index === undefined) return 'retired';
    const need = compactionNeed(await shardCopies(es, index));
    if (need === 'fragmented') {
      // A large index merges for longer than the client's timeout (long-calls.ts).
      await withLongCalls(es, (long) => long.indices.forcemerge({ index, max_num_segments: 1 }));
      await es.indices.refresh({ index });
    }
    return need;
  } catch (err) {
    if (err instanceof errors.ResponseError && err.statusCode === 404) return 'retired';
    return { failed: (err as Error).message };
  }
}
