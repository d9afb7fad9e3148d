/** The indexer's record of its last runs: what /api/public/status shows, and the checkpoint. */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from '../services/store/collections';

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
  alias_target: string | null;
}

export interface Freshness {
  last_run: RunSummary | null;
  last_full_run: RunSummary | null;
  /** Changes with updated_at >= checkpoint are picked up by the next incremental run. */
  checkpoint: Date | null;
}

export async function readFreshness(state: Collection<IndexerStateRecord>): Promise<Freshness> {
  const doc = await state.findOne({ _id: FRESHNESS_ID });
  return {
    last_run: (doc?.last_run as RunSummary | undefined) ?? null,
    last_full_run: (doc?.last_full_run as RunSummary | undefined) ?? null,
    checkpoint: (doc?.checkpoint as Date | undefined) ?? null,
  };
}

export async function recordRun(
  state: Collection<IndexerStateRecord>,
  run: RunSummary,
  checkpoint: Date,
): Promise<void> {
  const set: Record<string, unknown> = { last_run: run, checkpoint };
  if (run.kind === 'full') set.last_full_run = run;
  await state.updateOne({ _id: FRESHNESS_ID }, { $set: set }, { upsert: true });
}
