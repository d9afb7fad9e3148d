/**
 * Full rebuild without downtime: a fresh timestamped index is loaded in bulk with this build's mapping,
 * counted, and swapped in under this version's alias (`<alias>-v<version>`, es-admin.ts ownAlias) and,
 * unless the run only prepares the version ahead of a deploy, under the unversioned alias; then the
 * index these aliases left is deleted when no other version's alias points at it. Any dropped document fails the run, deletes
 * the half-built index, and leaves the alias as it was. The change-log entries pending when the run
 * started are applied by it; entries written meanwhile wait for the next incremental run. While the
 * index of another version is kept for copies that read it, the entries stay pending: the next
 * incremental run applies them to every kept index (index-versions.ts).
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../services/kernel/store/collections';
import type { CompactionOutcome } from './compaction';
import type { IndexReplicas } from '../services/kernel/config';
import type { KeptFacts } from '../services/kernel/store/home-facts';
import { acknowledgeChanges, pendingChanges } from '../services/kernel/store/inventory-changes';
import { todayIso } from '../services/kernel/engine/dates';
import { aliasTargets, createHomesIndex, deleteIndexes, finishLoading, orphanIndexes, ownAlias, swapAlias, timestampedIndexName } from './es-admin';
import { versionIndexes } from './index-versions';
import { recordRun, runSummary, type RunSummary } from '../services/kernel/store/index-freshness';
import { applyingToIndex } from '../services/kernel/store/index-generation';
import { homeBytesBySlice, loadLookups } from './source';
import { planSlices, readSliceCensus, saveSliceCensus, type SliceCensus } from './id-slices';
import { pooledDocuments, workersFor } from './document-pool';
import { bulkLoadPrebuilt, IndexingFailedError } from './bulk-load';
import { ensureRoutingKeys } from './routing-keys';
import { readRoutingKeys } from '../services/kernel/store/home-routing';
import { syncPlaces } from './place-index';
import { readVocabulary, writeVocabulary } from '../services/kernel/store/vocabulary-store';

export { IndexingFailedError } from './bulk-load';

/** Longer than any search may run (the request path's store deadline is 2 s by default). */
export const RETIRE_AFTER_MS = 5_000;

export type RebuildPhase = 'loaded' | 'ready' | 'swapped';

export interface IndexerOptions {
  /** The unversioned alias; this version's own is derived from it (es-admin.ts ownAlias). */
  alias: string;
  /**
   * A full rebuild that prepares this version ahead of its deploy (`npm run reindex -- --full --for-version`):
   * only this version's alias moves; the unversioned alias, and every index copies read, stay as they are.
   */
  prepare?: boolean;
  indexPrefix: string;
  /** Bulk request size and parallelism (config: INDEXER_FLUSH_BYTES, INDEXER_CONCURRENCY). */
  flushBytes?: number;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * A full rebuild's steps as they end: every document loaded, the index merged and given its
   * replicas, the alias swapped (the new index serves from here; the previous one retires after).
   */
  onPhase?: (phase: RebuildPhase) => void;
  /** Replicas of the new index, set once it is loaded (config: INDEX_REPLICAS; default `auto`). */
  replicas?: IndexReplicas;
  /** How long the previous index outlives the alias swap (default RETIRE_AFTER_MS). */
  retireAfterMs?: number;
  /** Worker threads building documents in a full rebuild (config: INDEXER_WORKERS; default one per core, none for a small inventory). */
  workers?: number;
  /** Called every few seconds during long work; the lease renews itself here. */
  heartbeat?: () => Promise<void>;
  /** An incremental run that wrote hands over the merge it started (indexer/compaction.ts; it never rejects). */
  onCompaction?: (merge: Promise<CompactionOutcome>) => void;
  /**
   * Whether an incremental run that wrote starts that merge itself (the default: a run from the command
   * line). The worker's schedule says no and merges once the change log has been quiet a while
   * (schedule.ts), so a stream of small changes, each applied within seconds, costs one merge, not one each.
   */
  mergeAfterRun?: boolean;
  now?: () => Date;
  /**
   * An incremental run that writes calls it with the ids of the homes it applies and the facts of those it
   * wrote, once their documents are built and handed to the writes, still under the lease: the watch
   * matching (services/watch-matcher.ts). `indexed` resolves when those writes are searchable (and rejects
   * when they fail): the matching asks the watches' index and MongoDB meanwhile, and the homes only after
   * it. The run waits for it before the change log's entries are acknowledged; a failure fails the run,
   * whose entries are applied again. A full rebuild never calls it: a rebuild records nothing new by itself.
   */
  onWriting?: (homeIds: readonly string[], written: KeptFacts | undefined, indexed: Promise<void>) => Promise<void>;
  /** Every incremental run calls it at its end, under the lease, whether it wrote or not: the webhooks due for a retry are sent. */
  afterIncremental?: () => Promise<void>;
}

export async function fullRebuild(es: Client, c: Collections, opts: IndexerOptions): Promise<RunSummary> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const today = todayIso(startedAt);
  // Read before the homes: every change these entries describe is in what we read next.
  const applied = await pendingChanges(c.inventoryChanges);
  const own = ownAlias(opts.alias);
  // Orphans come from killed or failed runs; we hold the lease, so none is being built now. The index of
  // each version that copies read is no orphan.
  const versioned = new Set((await versionIndexes(es, opts.alias)).map((v) => v.index));
  await deleteIndexes(
    es,
    (await orphanIndexes(es, opts.indexPrefix, opts.alias)).filter((i) => !versioned.has(i)),
  );

  const previous = await aliasTargets(es, own);
  const previousShared = opts.prepare ? [] : await aliasTargets(es, opts.alias);
  const next = timestampedIndexName(opts.indexPrefix, startedAt);
  // For the progress bar only: cheap everywhere (collection metadata).
  const [total, lookups, census] = await Promise.all([c.homes.estimatedDocumentCount(), loadLookups(c), readSliceCensus(c.indexerState)]);
  // The slices follow what the last rebuild read (fewer, fuller queries); this one's census replaces it.
  const read: SliceCensus = [];
  // Every word the new index's documents hold, for the vocabulary (services/kernel/store/vocabulary-store.ts).
  const words = new Set<string>();
  let sent = 0;
  const skipped: string[] = [];
  // The aliases that move to the new index: its version's, and the unversioned one unless preparing.
  const swapped = opts.prepare ? [own] : [own, opts.alias];
  try {
    // Inside: a create that timed out may still have made the index, which the catch then deletes.
    await createHomesIndex(es, next);
    // Every market gets its key first, in the new index: the documents are routed by it (the previous index's keys kept, new markets on the emptiest shards).
    const routingKeys = await ensureRoutingKeys(es, next, lookups.markets.keys(), await readRoutingKeys(es, previous.length > 0 ? own : opts.alias));
    const documents = pooledDocuments(
      homeBytesBySlice(c, planSlices(census), (slice, count) => read.push({ bases: slice.bases, count })),
      { lookups, today, routingKeys },
      (reason) => skipped.push(reason),
      opts.workers ?? workersFor(total),
      (found) => {
        for (const w of found) words.add(w);
      },
    );
    await bulkLoadPrebuilt(es, next, documents, {
      onDocument: () => {
        sent += 1;
        opts.onProgress?.(sent, total);
      },
      flushBytes: opts.flushBytes,
      concurrency: opts.concurrency,
      heartbeat: opts.heartbeat,
    });
    opts.onPhase?.('loaded');
    await finishLoading(es, next, opts.replicas);
    opts.onPhase?.('ready');
    const { count } = await es.count({ index: next });
    if (count !== sent) {
      throw new IndexingFailedError(`index holds ${count} documents but ${sent} were sent`, Math.abs(sent - count));
    }
    // Searched from the swap on, read by copies until the old index is gone: the words of both.
    for (const alias of swapped) {
      await writeVocabulary(c.indexerState, alias, [...((await readVocabulary(c.indexerState, alias)) ?? []), ...words], now());
    }
    // The new index is seen from the swap on: the generation moves around it (kernel/store/index-generation.ts).
    await applyingToIndex(c.indexerState, async () => {
      await swapAlias(es, own, opts.indexPrefix, next, previous);
      if (!opts.prepare) await swapAlias(es, opts.alias, opts.indexPrefix, next, previousShared);
    });
    opts.onPhase?.('swapped');
  } catch (err) {
    // The alias still points at the previous index; drop the half-built one.
    await deleteIndexes(es, [next]).catch(() => undefined);
    throw err;
  }
  // What the aliases left, unless another version's alias still points there (the copies of that version read it).
  const stillRead = new Set((await versionIndexes(es, opts.alias)).map((v) => v.index));
  const retired = [...new Set([...previous, ...previousShared])].filter((p) => p !== next && !stillRead.has(p));
  const others = [...stillRead].filter((i) => i !== next);
  // Searches that read the alias just before the swap are still running on the old index: give them
  // their deadline and more before it goes (deleted under a search, it fails that search).
  if (retired.length > 0) await new Promise((r) => setTimeout(r, opts.retireAfterMs ?? RETIRE_AFTER_MS));
  await deleteIndexes(es, retired);
  // Another version's index has not seen these changes: they wait for the next incremental run, which applies them to each.
  if (others.length === 0) await acknowledgeChanges(c.inventoryChanges, applied);
  await saveSliceCensus(c.indexerState, read, startedAt);
  // The place box follows the new index, and the vocabulary keeps its words alone (one more generation window: a
  // failure here leaves the homes swapped, and the next run syncs the places again). The aliases that moved
  // name one index: one places index behind both places aliases, built once (place-index.ts).
  await applyingToIndex(c.indexerState, async () => {
    for (const alias of swapped) await writeVocabulary(c.indexerState, alias, words, now());
    await syncPlaces(es, c, swapped, opts.replicas, startedAt);
  });

  const run = runSummary('full', startedAt, now(), { documents: sent, skipped, changes: applied.length, aliasTarget: next });
  await recordRun(c.indexerState, run);
  return run;
}
