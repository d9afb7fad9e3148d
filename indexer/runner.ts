/** Runs one indexer job under the lease, renewing it while the job works. */
import type { Client } from '@elastic/elasticsearch';
import type { Config } from '../services/kernel/config';
import type { Collections } from '../services/kernel/store/collections';
import { acquireLease, LeaseLostError } from './lease';
import { fullRebuild, RETIRE_AFTER_MS, type IndexerOptions } from './full-rebuild';
import { incrementalRun } from './incremental';
import { aliasMappingCurrent, ownAlias } from './es-admin';
import { adoptUnversioned, ensureVersionWanted, retireUnread, VersionUnreadError } from './index-versions';
import { recordFailedRun, type RunSummary } from '../services/kernel/store/index-freshness';
import { runSpan } from '../services/kernel/tracing';

export type JobKind = 'full' | 'incremental';

const LEASE_TTL_MS = 60_000;

export async function runIndexerJob(
  kind: JobKind,
  es: Client,
  c: Collections,
  config: Config,
  extra: Pick<
    IndexerOptions,
    'onProgress' | 'onPhase' | 'onCompaction' | 'mergeAfterRun' | 'prepare' | 'retireAfterMs' | 'onWriting' | 'afterIncremental'
  > = {},
): Promise<RunSummary> {
  const lease = await acquireLease(c.indexerState, { ttlMs: LEASE_TTL_MS, label: `indexer-${kind}`, host: config.indexerHost });
  let lost: Error | null = null;
  // Only a lease taken by someone else stops the job; a failed renewal (a Mongo hiccup) is retried
  // at the next beat, well inside the lease's time to live.
  const beat = async (): Promise<void> => {
    try {
      await lease.renew();
    } catch (err) {
      if (err instanceof LeaseLostError) lost = err;
    }
  };
  const timer = setInterval(() => void beat(), LEASE_TTL_MS / 4);
  try {
    const opts: IndexerOptions = {
      alias: config.homesAlias,
      indexPrefix: config.homesIndexPrefix,
      flushBytes: config.indexerFlushBytes,
      concurrency: config.indexerConcurrency,
      workers: config.indexerWorkers || undefined,
      replicas: config.indexReplicas,
      heartbeat: async () => {
        await beat();
        if (lost) throw lost;
      },
      ...extra,
    };
    let full = kind === 'full';
    try {
      // Each run is a trace of its own (tracing on); an incremental run links to the changes it applies (incremental.ts).
      return await runSpan(`indexer ${kind}`, { 'catalog.indexer.kind': kind }, async (span) => {
        // An index made before versioned aliases gets its version's alias (index-versions.ts). This
        // version without an index of its own (the code was upgraded and the version not prepared) gets
        // one built, not the other version's updated. Asking Elasticsearch is part of the run: a run that
        // cannot is a failed run, and counted.
        await adoptUnversioned(es, c.indexerState, config.homesAlias);
        if (!opts.prepare) await ensureVersionWanted(es, c.indexerState, config.homesAlias, ownAlias(config.homesAlias));
        full ||= !(await aliasMappingCurrent(es, ownAlias(config.homesAlias)));
        const summary = full ? await fullRebuild(es, c, opts) : await incrementalRun(es, c, opts);
        // An older version's index that no copy reads any more goes once a newer one is complete.
        await retireUnread(es, c.indexerState, config.homesAlias, { own: ownAlias(config.homesAlias), retireAfterMs: opts.retireAfterMs ?? RETIRE_AFTER_MS });
        span?.setAttributes({ 'catalog.indexer.kind': full ? 'full' : 'incremental', 'catalog.indexer.documents': summary.documents });
        return summary;
      });
    } catch (err) {
      // A build left running after its version's deploy is not a failing indexer.
      if (!(err instanceof VersionUnreadError)) await recordFailedRun(c.indexerState, full ? 'full' : 'incremental').catch(() => undefined);
      throw err;
    }
  } finally {
    clearInterval(timer);
    await lease.release().catch(() => undefined);
  }
}
