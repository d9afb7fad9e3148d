/**
 * Incremental run: homes (and homes of buildings) changed since the last checkpoint are
 * re-indexed into the live alias; unpublished or soft-deleted homes are removed from it.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Filter } from 'mongodb';
import type { HomeRecord } from '../services/domain/inventory';
import type { Collections } from '../services/store/collections';
import { todayIso } from '../services/engine/dates';
import { aliasTargets } from './es-admin';
import { readFreshness, recordRun, type RunSummary } from './freshness';
import { documentOrSkip, isIndexable, loadLookups } from './source';
import { IndexingFailedError, type IndexerOptions } from './full-rebuild';
import { bulkHeartbeat } from './heartbeat';

/**
 * Changes are looked for from a little before the checkpoint: writers' clocks may lag the
 * indexer's, and re-indexing a few homes twice costs nothing while a missed change would stay stale.
 */
export const CHECKPOINT_OVERLAP_MS = 60_000;

export class NoIndexYetError extends Error {
  constructor(alias: string) {
    super(`alias "${alias}" does not exist yet; run a full rebuild first`);
    this.name = 'NoIndexYetError';
  }
}

type Op = { kind: 'index'; home: HomeRecord } | { kind: 'delete'; id: string };

export async function incrementalRun(es: Client, c: Collections, opts: IndexerOptions): Promise<RunSummary> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const today = todayIso(startedAt);
  const targets = await aliasTargets(es, opts.alias);
  if (targets.length === 0) throw new NoIndexYetError(opts.alias);
  const { checkpoint } = await readFreshness(c.indexerState);
  const since = new Date((checkpoint?.getTime() ?? 0) - (checkpoint ? CHECKPOINT_OVERLAP_MS : 0));

  // A home's document also carries its building's and market's fields: their changes re-index it.
  const [changedProperties, changedMarkets] = await Promise.all([
    c.properties.find({ updated_at: { $gte: since } }, { projection: { _id: 1 } }).toArray(),
    c.markets.find({ updated_at: { $gte: since } }, { projection: { _id: 1 } }).toArray(),
  ]);
  const or: Filter<HomeRecord>[] = [{ updated_at: { $gte: since } }];
  if (changedProperties.length > 0) or.push({ property_id: { $in: changedProperties.map((p) => p._id) } });
  if (changedMarkets.length > 0) or.push({ market_slug: { $in: changedMarkets.map((m) => m._id) } });
  const filter: Filter<HomeRecord> = or.length === 1 ? or[0] : { $or: or };
  const lookups = await loadLookups(c);

  const beat = bulkHeartbeat(opts.heartbeat);
  let indexed = 0;
  let deleted = 0;
  const dropped: string[] = [];
  async function* ops(): AsyncGenerator<Op> {
    const cursor = c.homes.find(filter, { batchSize: 1000 });
    try {
      for await (const home of cursor) yield isIndexable(home) ? { kind: 'index', home } : { kind: 'delete', id: home._id };
    } finally {
      await cursor.close();
    }
  }
  const skipped: string[] = [];
  async function* docs(): AsyncGenerator<{ op: Op; doc: object }> {
    for await (const op of ops()) {
      if (op.kind === 'delete') {
        yield { op, doc: {} };
        continue;
      }
      const doc = await documentOrSkip(c, op.home, lookups, today);
      if ('skipped' in doc) skipped.push(doc.skipped);
      else yield { op, doc };
    }
  }
  const stats = await es.helpers.bulk<{ op: Op; doc: object }>({
    datasource: docs(),
    onDocument: ({ op, doc }) => {
      if (op.kind === 'delete') {
        deleted += 1;
        return { delete: { _index: opts.alias, _id: op.id } };
      }
      indexed += 1;
      return [{ index: { _index: opts.alias, _id: op.home._id } }, doc];
    },
    onDrop: (drop) => {
      // Deleting a document that is not in the index is not a failure.
      if (drop.status === 404) return;
      dropped.push(JSON.stringify(drop.error));
    },
    flushBytes: opts.flushBytes ?? 2_000_000,
    concurrency: opts.concurrency ?? 2,
    retries: 3,
    refreshOnCompletion: opts.alias,
    onSuccess: () => beat.tick(),
  });
  if (dropped.length > 0) {
    throw new IndexingFailedError(`${dropped.length} change(s) were rejected; first: ${dropped[0]}`, dropped.length);
  }
  void stats;
  // Still ours? Then the checkpoint may move on.
  await beat.check();
  const finishedAt = now();
  const run: RunSummary = {
    kind: 'incremental',
    started_at: startedAt,
    finished_at: finishedAt,
    duration_ms: finishedAt.getTime() - startedAt.getTime(),
    documents: indexed,
    deleted,
    skipped: skipped.length,
    skipped_examples: skipped.slice(0, 5),
    alias_target: targets[0] ?? null,
  };
  await recordRun(c.indexerState, run, startedAt);
  return run;
}
