/**
 * The indexer's node-cron schedule: incremental runs often, a full rebuild nightly so bookable
 * windows move on with the calendar. Overlap is prevented in-process by a flag and across
 * processes by the lease.
 */
import cron from 'node-cron';
import type { Client } from '@elastic/elasticsearch';
import type { Config } from '../services/kernel/config';
import type { Logger } from '../services/kernel/logger';
import type { Collections } from '../services/kernel/store/collections';
import { LeaseHeldError } from './lease';
import { NoIndexYetError } from './incremental';
import { runIndexerJob, type JobKind } from './runner';
import { describeCompaction } from './compaction';

export interface Schedule {
  runNow(kind: JobKind): Promise<void>;
  stop(): Promise<void>;
}

export function startSchedule(es: Client, c: Collections, config: Config, log: Logger): Schedule {
  let running = false;
  // A full rebuild that falls on a busy moment is deferred, not dropped: windows must move on daily.
  let fullPending = false;
  const run = async (kind: JobKind): Promise<void> => {
    if (running) {
      if (kind === 'full') fullPending = true;
      log.info({ kind, deferred: kind === 'full' }, 'previous indexer run still going');
      return;
    }
    running = true;
    let fallBackToFull = false;
    try {
      const summary = await runIndexerJob(kind, es, c, config, {
        onCompaction: (merge) =>
          void merge.then((outcome) => {
            if (typeof outcome === 'object') log.warn({ reason: outcome.failed }, describeCompaction(outcome));
            else log.debug({ outcome }, describeCompaction(outcome));
          }),
      });
      log.info({ summary }, `${kind} indexer run finished`);
    } catch (err) {
      if (err instanceof NoIndexYetError) fallBackToFull = true;
      else if (err instanceof LeaseHeldError) {
        if (kind === 'full') fullPending = true;
        log.info({ reason: err.message }, 'lease held elsewhere; skipping');
      } else log.error({ err }, `${kind} indexer run failed; the alias keeps serving the previous index`);
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
  log.info({ incremental: config.incrementalCron, full: config.fullRebuildCron }, 'indexer schedule started');
  return {
    runNow: run,
    async stop() {
      for (const t of tasks) await t.stop();
    },
  };
}
