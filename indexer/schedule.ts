/**
 * The indexer's schedule: a watch on the change log runs an incremental run as soon as a change is
 * recorded (change-watch.ts), node-cron runs one every minute besides (a missed tick, a log entry
 * written while a run was going) and a full rebuild nightly so bookable windows move on with the
 * calendar. The live index is merged back to one segment per shard once the log has been quiet for
 * INDEXER_MERGE_QUIET_MS after a run that wrote (compaction.ts). Overlap is prevented in-process by a
 * flag and across processes by the lease.
 */
import cron from 'node-cron';
import type { Client } from '@elastic/elasticsearch';
import type { Config } from '../services/kernel/config';
import type { Logger } from '../services/kernel/logger';
import type { Collections } from '../services/kernel/store/collections';
import { LeaseHeldError } from './lease';
import { NoIndexYetError } from './incremental';
import { VersionUnreadError } from './index-versions';
import { runIndexerJob, type JobKind } from './runner';
import type { IndexerOptions } from './full-rebuild';
import { compactLiveIndex, describeCompaction, type CompactionOutcome } from './compaction';
import { watchChanges } from './change-watch';
import { ownAlias } from './es-admin';

export interface Schedule {
  runNow(kind: JobKind): Promise<void>;
  stop(): Promise<void>;
}

/** What the worker does besides indexing: the watch matching after an incremental run that wrote (IndexerOptions.onWriting). */
export interface ScheduleHooks {
  onWriting?: IndexerOptions['onWriting'];
  afterIncremental?: () => Promise<void>;
}

export function startSchedule(es: Client, c: Collections, config: Config, log: Logger, hooks: ScheduleHooks = {}): Schedule {
  let running = false;
  // A full rebuild that falls on a busy moment is deferred, not dropped: windows must move on daily.
  let fullPending = false;
  let mergeTimer: NodeJS.Timeout | undefined;
  const reportMerge = (merge: Promise<CompactionOutcome>): Promise<void> =>
    merge.then((outcome) => {
      if (typeof outcome === 'object') log.warn({ reason: outcome.failed }, describeCompaction(outcome));
      else log.debug({ outcome }, describeCompaction(outcome));
    });
  /** The merge after a run that wrote, once no other run has written for the quiet time (each such run starts the wait again). */
  const mergeWhenQuiet = (): void => {
    clearTimeout(mergeTimer);
    mergeTimer = setTimeout(() => {
      // A run under way may write again: the wait starts over.
      if (running) mergeWhenQuiet();
      else void reportMerge(compactLiveIndex(es, ownAlias(config.homesAlias)));
    }, config.indexerMergeQuietMs);
  };
  const run = async (kind: JobKind): Promise<void> => {
    if (running) {
      if (kind === 'full') fullPending = true;
      log.info({ kind, deferred: kind === 'full' }, 'previous indexer run still going');
      return;
    }
    running = true;
    let fallBackToFull = false;
    try {
      const summary = await runIndexerJob(kind, es, c, config, { mergeAfterRun: false, ...hooks });
      log.info({ summary }, `${kind} indexer run finished`);
      // A full rebuild's index is merged before the alias moves to it.
      if (summary.kind === 'incremental' && summary.documents + summary.deleted > 0) mergeWhenQuiet();
    } catch (err) {
      if (err instanceof NoIndexYetError) fallBackToFull = true;
      else if (err instanceof LeaseHeldError) {
        if (kind === 'full') fullPending = true;
        log.info({ reason: err.message }, 'lease held elsewhere; skipping');
      } else if (err instanceof VersionUnreadError) log.warn({ reason: err.message }, 'this indexer is of a version no copy reads; skipping');
      else log.error({ err }, `${kind} indexer run failed; the alias keeps serving the previous index`);
    } finally {
      running = false;
    }
    if (fallBackToFull) return run('full');
    if (kind === 'incremental' && fullPending) {
      fullPending = false;
      await run('full');
    }
  };
  const tasks = [
    cron.schedule(config.incrementalCron, () => void run('incremental'), { name: 'indexer-incremental' }),
    cron.schedule(config.fullRebuildCron, () => void run('full'), { name: 'indexer-full' }),
  ];
  // The watch leaves a tick to the run under way: its entries wait for the next tick after it.
  const watch =
    config.indexerWatchMs > 0
      ? watchChanges(
          c.inventoryChanges,
          config.indexerWatchMs,
          () => (running ? Promise.resolve() : run('incremental')),
          (err) => log.warn({ err: (err as Error).message }, 'the change log could not be read; asking again'),
        )
      : null;
  log.info({ incremental: config.incrementalCron, watchMs: config.indexerWatchMs, full: config.fullRebuildCron }, 'indexer schedule started');
  return {
    runNow: run,
    async stop() {
      await watch?.stop();
      clearTimeout(mergeTimer);
      // A merge under way goes on in Elasticsearch; nothing here waits for it.
      for (const t of tasks) await t.stop();
    },
  };
}
