/**
 * Incremental run: applies the pending entries of the inventory change log to the live alias.
 * Homes named by an entry are re-read by `_id`; homes of a changed building or market are found in
 * the index (it holds property_id and market_slug). Unpublished, soft-deleted and hard-deleted homes
 * are removed. The cost follows what changed: with nothing pending, the run is one small read.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../services/kernel/store/collections';
import { acknowledgeChanges, pendingChanges, summarizeChanges } from '../services/kernel/store/inventory-changes';
import { todayIso } from '../services/kernel/engine/dates';
import { aliasTargets, indexedHomeIds, indexedRoutings } from './es-admin';
import { homeRouting, readRoutingKeys } from '../services/kernel/store/home-routing';
import { ensureRoutingKeys } from './routing-keys';
import { recordRun, runSummary, type RunSummary } from '../services/kernel/store/index-freshness';
import { applyingToIndex } from '../services/kernel/store/index-generation';
import { documentOrSkip, emptyLookups, homesByIds, isIndexable } from './source';
import { fullRebuild, type IndexerOptions } from './full-rebuild';
import { bulkLoad } from './bulk-load';
import { compactLiveIndex } from './compaction';
import { placesCurrent, syncPlaces } from './place-index';
import { WordsSeen } from './words-seen';
import { extendVocabulary } from '../services/kernel/store/vocabulary-store';
import type { HomeDocument } from '../services/kernel/store/home-document';
import { trace } from '@opentelemetry/api';
import { linksOf, tracingOn } from '../services/kernel/tracing';

export class NoIndexYetError extends Error {
  constructor(alias: string) {
    super(`alias "${alias}" does not exist yet; run a full rebuild first`);
    this.name = 'NoIndexYetError';
  }
}

/** A delete names the shard its document is on (the routing it was indexed with). */
type Op = { kind: 'index'; doc: HomeDocument } | { kind: 'delete'; id: string; routing: string; moved: boolean };

export async function incrementalRun(es: Client, c: Collections, opts: IndexerOptions): Promise<RunSummary> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const today = todayIso(startedAt);
  const targets = await aliasTargets(es, opts.alias);
  if (targets.length === 0) throw new NoIndexYetError(opts.alias);

  const entries = await pendingChanges(c.inventoryChanges);
  // The run's trace links to the traces of the writers whose changes it applies (an import, a writer's request).
  if (tracingOn()) trace.getActiveSpan()?.addLinks(linksOf(entries.map((e) => e.trace)));
  const changed = summarizeChanges(entries);
  // The inventory was replaced as a whole (a seed): only a rebuild catches up.
  if (changed.full) return fullRebuild(es, c, opts);

  const ids = new Set(changed.homes);
  // A home's document carries its building's and market's fields: their changes re-index it.
  for (const id of await indexedHomeIds(es, opts.alias, 'property_id', [...changed.properties])) ids.add(id);
  for (const id of await indexedHomeIds(es, opts.alias, 'market_slug', [...changed.markets])) ids.add(id);

  const lookups = emptyLookups();
  const skipped: string[] = [];
  let indexed = 0;
  let deleted = 0;
  const wanted = [...ids];
  const words = new WordsSeen();
  const indexedAt = await indexedRoutings(es, opts.alias, wanted);
  // The live index's routing keys; a market without one (new since the last run) is keyed before its first home is written.
  let keys = await readRoutingKeys(es, opts.alias);
  /** The removal of a home's document where it is indexed; none when it is not in the index. */
  const removal = (id: string, moved = false): Op[] => {
    const routing = indexedAt.get(id);
    return routing === undefined ? [] : [{ kind: 'delete', id, routing, moved }];
  };
  async function* ops(): AsyncGenerator<Op> {
    for await (const homes of homesByIds(c, wanted)) {
      for (const home of homes) {
        ids.delete(home._id);
        if (!isIndexable(home)) {
          yield* removal(home._id);
          continue;
        }
        const doc = await documentOrSkip(c, home, lookups, today);
        if ('skipped' in doc) {
          skipped.push(doc.skipped);
          continue;
        }
        if (!Object.hasOwn(keys, doc.market_slug)) keys = await ensureRoutingKeys(es, opts.alias, [doc.market_slug]);
        // A home that moved to another market leaves its old shard: no second copy is left behind.
        if (indexedAt.has(home._id) && indexedAt.get(home._id) !== homeRouting(doc.market_slug, keys)) yield* removal(home._id, true);
        yield { kind: 'index', doc };
      }
    }
    // Named by the log but gone from MongoDB: hard-deleted.
    for (const id of ids) yield* removal(id);
  }
  if (ids.size > 0) {
    // The writes and their refresh sit inside the generation's two moves: a copy's kept records of these homes' buildings end there.
    await applyingToIndex(c.indexerState, () =>
      bulkLoad<Op>(es, {
        datasource: ops(),
        onDocument: (op) => {
          if (op.kind === 'delete') {
            if (!op.moved) deleted += 1;
            return { delete: { _index: opts.alias, _id: op.id, routing: op.routing } };
          }
          indexed += 1;
          words.add(op.doc);
          opts.onProgress?.(indexed, indexed + ids.size);
          return [{ index: { _index: opts.alias, _id: op.doc.home_id, routing: homeRouting(op.doc.market_slug, keys) } }, op.doc];
        },
        flushBytes: opts.flushBytes,
        concurrency: opts.concurrency,
        heartbeat: opts.heartbeat,
        refresh: opts.alias,
        // Deleting a document that is not in the index is not a failure.
        ignoreDrop: (status) => status === 404,
      }).then(async () => {
        // Before the generation's last move: a copy reads the vocabulary anew after it (kernel/store/vocabulary-store.ts).
        await extendVocabulary(c.indexerState, opts.alias, new Set(words.take()), now());
        await syncPlaces(es, c, opts.alias, opts.replicas, startedAt);
      }),
    );
    if (indexed + deleted > 0) await opts.onIndexed?.(wanted);
    // The run's small segments merged back into one per shard after it, without holding it up (compaction.ts).
    if (indexed + deleted > 0 && opts.mergeAfterRun !== false) {
      const compaction = compactLiveIndex(es, opts.alias);
      opts.onCompaction?.(compaction);
    }
  } else {
    // Nothing to write; the places index is made when missing or of another mapping (a copy upgraded in place).
    if (!(await placesCurrent(es, opts.alias))) await applyingToIndex(c.indexerState, () => syncPlaces(es, c, opts.alias, opts.replicas, startedAt));
    await opts.heartbeat?.();
  }
  await acknowledgeChanges(c.inventoryChanges, entries);
  await opts.afterIncremental?.();
  const run = runSummary('incremental', startedAt, now(), {
    documents: indexed,
    deleted,
    skipped,
    changes: entries.length,
    aliasTarget: targets[0] ?? null,
  });
  await recordRun(c.indexerState, run);
  return run;
}
