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

export async function recordRun(state: Collection<IndexerStateRecord>, run: RunSummary): Promise<void> {
  const set: Record<string, unknown> = { last_run: run };
  if (run.kind === 'full') set.last_full_run = run;
  await state.updateOne({ _id: FRESHNESS_ID }, { $set: set }, { upsert: true });
}
