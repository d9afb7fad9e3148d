/** The indexer's record of its last runs: what /api/public/status shows. */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from './collections';

const FRESHNESS_ID = 'freshness';

export interface RunSummary {
  kind: 'full' | 'incremental';
  started_at: Date;
  finished_at: Date;
  duration_ms: number;
  /** Documents written (full: the whole index; incremental: upserts). */
  documents: number;
  deleted: number;
  /** Homes that could not be indexed (a missing building or market), with a few reasons. */
  skipped: number;
  skipped_examples: string[];
  /** Change-log entries the run applied. */
  changes: number;
  alias_target: string | null;
}

export interface Freshness {
  last_run: RunSummary | null;
  last_full_run: RunSummary | null;
}

/** What the metrics report besides: the last incremental run, and the runs that failed by kind. */
export interface IndexerHistory extends Freshness {
  last_incremental_run: RunSummary | null;
  failed_runs: { full: number; incremental: number };
}

/** The one builder of a run's summary, for the full and the incremental run alike. */
export function runSummary(
  kind: RunSummary['kind'],
  startedAt: Date,
  finishedAt: Date,
  counts: { documents: number; deleted?: number; skipped: readonly string[]; changes: number; aliasTarget: string | null },
): RunSummary {
  return {
    kind,
    started_at: startedAt,
    finished_at: finishedAt,
    duration_ms: finishedAt.getTime() - startedAt.getTime(),
    documents: counts.documents,
    deleted: counts.deleted ?? 0,
    skipped: counts.skipped.length,
    skipped_examples: counts.skipped.slice(0, 5),
    changes: counts.changes,
    alias_target: counts.aliasTarget,
  };
}

export async function readFreshness(state: Collection<IndexerStateRecord>): Promise<Freshness> {
  const doc = await state.findOne({ _id: FRESHNESS_ID });
  return {
    last_run: (doc?.last_run as RunSummary | undefined) ?? null,
    last_full_run: (doc?.last_full_run as RunSummary | undefined) ?? null,
  };
}

export async function readIndexerHistory(state: Collection<IndexerStateRecord>): Promise<IndexerHistory> {
  const doc = await state.findOne({ _id: FRESHNESS_ID });
  const failed = (doc?.failed_runs ?? {}) as { full?: number; incremental?: number };
  return {
    last_run: (doc?.last_run as RunSummary | undefined) ?? null,
    last_full_run: (doc?.last_full_run as RunSummary | undefined) ?? null,
    last_incremental_run: (doc?.last_incremental_run as RunSummary | undefined) ?? null,
    failed_runs: { full: failed.full ?? 0, incremental: failed.incremental ?? 0 },
  };
}

export async function recordRun(state: Collection<IndexerStateRecord>, run: RunSummary): Promise<void> {
  const set: Record<string, unknown> = { last_run: run };
  set[run.kind === 'full' ? 'last_full_run' : 'last_incremental_run'] = run;
  await state.updateOne({ _id: FRESHNESS_ID }, { $set: set }, { upsert: true });
}

/** A run that failed (counted for the metrics; the lease and the alias are handled by the run). */
export async function recordFailedRun(state: Collection<IndexerStateRecord>, kind: RunSummary['kind']): Promise<void> {
  // The freshness record, typed for the counter it carries.
  const typed = state as unknown as Collection<{ _id: string; failed_runs?: { full?: number; incremental?: number } }>;
  await typed.updateOne({ _id: FRESHNESS_ID }, { $inc: kind === 'full' ? { 'failed_runs.full': 1 } : { 'failed_runs.incremental': 1 } }, { upsert: true });
}
