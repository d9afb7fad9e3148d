/**
 * Full rebuild without downtime: a fresh timestamped index is loaded in bulk from a Mongo
 * cursor, counted, and swapped in with one alias call; then the old index is deleted. Any
 * dropped document fails the run, deletes the half-built index, and leaves the alias as it was.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../services/store/collections';
import { todayIso } from '../services/engine/dates';
import {
  aliasTargets,
  createHomesIndex,
  deleteIndexes,
  finishLoading,
  orphanIndexes,
  swapAlias,
  timestampedIndexName,
} from './es-admin';
import { recordRun, type RunSummary } from './freshness';
import { homeDocuments, INDEXABLE, loadLookups } from './source';
import type { HomeDocument } from './document';
import { bulkHeartbeat } from './heartbeat';

export interface IndexerOptions {
  alias: string;
  indexPrefix: string;
  /** Bulk request size and parallelism: sized for a 2-core node by default. */
  flushBytes?: number;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /** Called every few seconds during long work; the lease renews itself here. */
  heartbeat?: () => Promise<void>;
  now?: () => Date;
}

export class IndexingFailedError extends Error {
  constructor(message: string, readonly dropped: number) {
    super(message);
    this.name = 'IndexingFailedError';
  }
}

export async function fullRebuild(es: Client, c: Collections, opts: IndexerOptions): Promise<RunSummary> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const today = todayIso(startedAt);
  // Orphans come from killed or failed runs; we hold the lease, so none is being built now.
  await deleteIndexes(es, await orphanIndexes(es, opts.indexPrefix, opts.alias));

  const previous = await aliasTargets(es, opts.alias);
  const next = timestampedIndexName(opts.indexPrefix, startedAt);
  const total = await c.homes.countDocuments(INDEXABLE);
  const lookups = await loadLookups(c);
  await createHomesIndex(es, next);

  let sent = 0;
  const dropped: string[] = [];
  const skipped: string[] = [];
  const beat = bulkHeartbeat(opts.heartbeat);
  try {
    const stats = await es.helpers.bulk<HomeDocument>({
      datasource: homeDocuments(c, lookups, today, (_home, reason) => skipped.push(reason)),
      onDocument: (doc) => {
        sent += 1;
        opts.onProgress?.(sent, total);
        return { index: { _index: next, _id: doc.home_id } };
      },
      onDrop: (drop) => {
        dropped.push(`${drop.document.home_id}: ${JSON.stringify(drop.error)}`);
      },
      onSuccess: () => beat.tick(),
      flushBytes: opts.flushBytes ?? 2_000_000,
      concurrency: opts.concurrency ?? 2,
      retries: 3,
    });
    if (dropped.length > 0 || stats.failed > 0) {
      throw new IndexingFailedError(
        `${dropped.length || stats.failed} document(s) were rejected; first: ${dropped[0] ?? 'unknown'}`,
        dropped.length || stats.failed,
      );
    }
    await beat.check();
    await finishLoading(es, next);
    const { count } = await es.count({ index: next });
    if (count !== sent) {
      throw new IndexingFailedError(`index holds ${count} documents but ${sent} were sent`, Math.abs(sent - count));
    }
    await swapAlias(es, opts.alias, opts.indexPrefix, next, previous);
  } catch (err) {
    // The alias still points at the previous index; drop the half-built one.
    await deleteIndexes(es, [next]).catch(() => undefined);
    throw err;
  }
  await deleteIndexes(es, previous.filter((p) => p !== next));

  const finishedAt = now();
  const run: RunSummary = {
    kind: 'full',
    started_at: startedAt,
    finished_at: finishedAt,
    duration_ms: finishedAt.getTime() - startedAt.getTime(),
    documents: sent,
    deleted: 0,
    skipped: skipped.length,
    skipped_examples: skipped.slice(0, 5),
    alias_target: next,
  };
  // Changes made while we read are caught by the next incremental run: checkpoint = our start.
  await recordRun(c.indexerState, run, startedAt);
  return run;
}
