/**
 * Incremental run: applies the pending entries of the inventory change log to the index of every
 * mapping version that copies read (index-versions.ts), this version's first.
 * Homes named by an entry are re-read by `_id`; homes of a changed building or market are found in
 * the index (it holds property_id and market_slug). Unpublished, soft-deleted and hard-deleted homes
 * are removed. The cost follows what changed: with nothing pending, the run is one small read.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../services/kernel/store/collections';
import { acknowledgeChanges, pendingChanges, summarizeChanges } from '../services/kernel/store/inventory-changes';
import { todayIso } from '../services/kernel/engine/dates';
import { aliasTargets, indexedHomeIds, indexedRoutings, ownAlias } from './es-admin';
import { versionIndexes } from './index-versions';
import { homeRouting, readRoutingKeys } from '../services/kernel/store/home-routing';
import { ensureRoutingKeys } from './routing-keys';
import { recordRun, runSummary, type RunSummary } from '../services/kernel/store/index-freshness';
import { applyingToIndex } from '../services/kernel/store/index-generation';
import { documentOrSkip, emptyLookups, homesByIds, isIndexable, lookupsFor } from './source';
import { fullRebuild, type IndexerOptions } from './full-rebuild';
import { bulkLoad } from './bulk-load';
import { compactLiveIndex } from './compaction';
import { placesCurrent, syncPlaces } from './place-index';
import { WordsSeen } from './words-seen';
import { extendVocabulary } from '../services/kernel/store/vocabulary-store';
import type { HomeDocument } from '../services/kernel/store/home-document';
import { factsOfDocument, type HomeFacts } from '../services/kernel/store/home-facts';
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
  // Every version's index that copies read gets the changes, this version's first (index-versions.ts).
  const own = ownAlias(opts.alias);
  const aliases = [...new Set((await versionIndexes(es, opts.alias)).map((v) => v.alias))].sort((a, b) => Number(b === own) - Number(a === own));
  if (!aliases.includes(own)) throw new NoIndexYetError(own);

  const entries = await pendingChanges(c.inventoryChanges);
  // The run's trace links to the traces of the writers whose changes it applies (an import, a writer's request).
  if (tracingOn()) trace.getActiveSpan()?.addLinks(linksOf(entries.map((e) => e.trace)));
  const changed = summarizeChanges(entries);
  // The inventory was replaced as a whole (a seed): only a rebuild catches up. Another version's index
  // cannot be rebuilt with this build's mapping: it keeps what it holds until it retires.
  if (changed.full) {
    const run = await fullRebuild(es, c, opts);
    await acknowledgeChanges(c.inventoryChanges, entries);
    return run;
  }
  // The unversioned alias points at one of these indexes: its places and words follow that index's writes.
  const shared = new Set(await aliasTargets(es, opts.alias));
  const applied: Applied[] = [];
  // The watch matching of the homes this version's index changes: started once their documents are built,
  // it reads the watches while the writes and their refresh go on, and asks the homes only after them.
  let matching: Promise<{ failed?: unknown }> | undefined;
  let indexed: ReturnType<typeof settleable> | undefined;
  try {
    for (const alias of aliases) {
      const followers = (await aliasTargets(es, alias)).some((i) => shared.has(i)) ? [alias, opts.alias] : [alias];
      const onWriting = alias === own ? opts.onWriting : undefined;
      if (!onWriting) {
        applied.push(await applyChanges(es, c, { ...opts, alias }, changed, today, followers, startedAt));
        continue;
      }
      // The watches match this version's homes: their facts are kept as they are written.
      const facts = new Map<string, HomeFacts | null>();
      const searchable = settleable();
      indexed = searchable;
      const built = (wanted: readonly string[]): void => {
        // Settled here so that a failure waits for the run, never for an unhandled rejection.
        matching = onWriting(wanted, facts, searchable.promise).then(
          () => ({}),
          (failed: unknown) => ({ failed }),
        );
      };
      applied.push(await applyChanges(es, c, { ...opts, alias }, changed, today, followers, startedAt, { facts, built }));
      searchable.resolve();
    }
  } catch (err) {
    // The matching never outlives its run, nor the lease the run holds: a failure before this version's
    // writes were searchable stops it there; after, the run still waits for it before it fails.
    indexed?.reject(err);
    await matching;
    throw err;
  }
  const mine = applied[0] ?? { indexed: 0, deleted: 0, skipped: [], wanted: [] };
  // The watches see the homes this version's index changed before the changes are acknowledged: a
  // crash in between repeats the matching, whose journal records nothing twice (services/watches/store.ts).
  const matched = await matching;
  if (matched && 'failed' in matched) throw matched.failed;
  await acknowledgeChanges(c.inventoryChanges, entries);
  await opts.afterIncremental?.();
  const run = runSummary('incremental', startedAt, now(), {
    documents: mine.indexed,
    deleted: mine.deleted,
    skipped: mine.skipped,
    changes: entries.length,
    aliasTarget: (await aliasTargets(es, own))[0] ?? null,
  });
  await recordRun(c.indexerState, run);
  return run;
}

/** A promise settled from outside; its rejection is handled here, so one nobody waits for is not unhandled. */
function settleable(): { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** What the watch matching is given of a run's writes to this version's index. */
interface Watching {
  /** What the run knows of the homes it applies, kept as they are written (at most FACTS_KEPT homes': KeptFacts). */
  facts: Map<string, HomeFacts | null>;
  /** Called once every document is built and handed to the writes, when the run writes or deletes one. */
  built: (wanted: readonly string[]) => void;
}

interface Applied {
  indexed: number;
  deleted: number;
  skipped: string[];
  /** The homes the run looked at in this index: written, deleted or found unchanged. */
  wanted: string[];
}

/**
 * Homes whose facts a run keeps for the watches (a few kilobytes each: a market's change re-indexes
 * all its homes, whose facts past this many the matching reads from the index instead).
 */
const FACTS_KEPT = 10_000;

/**
 * The changes applied to the index behind one versioned alias (`opts.alias`); `followers` are the
 * aliases whose words and places follow that index (the alias itself, and the unversioned alias when it
 * points there).
 */
async function applyChanges(
  es: Client,
  c: Collections,
  opts: IndexerOptions,
  changed: ReturnType<typeof summarizeChanges>,
  today: string,
  followers: string[],
  startedAt: Date,
  watching?: Watching,
): Promise<Applied> {
  const facts = watching?.facts;
  /** A home the run leaves with no document: the matching need not ask the alias for it. */
  const keepGone = (id: string): void => {
    if (facts && facts.size < FACTS_KEPT) facts.set(id, null);
  };
  const now = opts.now ?? (() => new Date());
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
      await lookupsFor(c, homes.filter(isIndexable), lookups);
      for (const home of homes) {
        ids.delete(home._id);
        if (!isIndexable(home)) {
          keepGone(home._id);
          yield* removal(home._id);
          continue;
        }
        const doc = documentOrSkip(home, lookups, today);
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
    for (const id of ids) {
      keepGone(id);
      yield* removal(id);
    }
    // Every op is with the writes now (the bulk helper serializes each before it asks for the next).
    if (indexed + deleted > 0) watching?.built(wanted);
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
          if (facts && facts.size < FACTS_KEPT) facts.set(op.doc.home_id, factsOfDocument(op.doc));
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
        const seen = new Set(words.take());
        for (const alias of followers) await extendVocabulary(c.indexerState, alias, seen, now());
        // One index, one sync: its places aliases share the places index it makes (place-index.ts).
        await syncPlaces(es, c, followers, opts.replicas, startedAt);
      }),
    );
    // The run's small segments merged back into one per shard after it, without holding it up (compaction.ts).
    if (indexed + deleted > 0 && opts.mergeAfterRun !== false) {
      const compaction = compactLiveIndex(es, opts.alias);
      opts.onCompaction?.(compaction);
    }
  } else {
    // Nothing to write; the places index is made when missing, of another mapping (a copy upgraded in place) or
    // not shared by the followers' places aliases (made before they shared it).
    if (!(await placesCurrent(es, followers))) await applyingToIndex(c.indexerState, () => syncPlaces(es, c, followers, opts.replicas, startedAt));
    await opts.heartbeat?.();
  }
  return { indexed, deleted, skipped, wanted };
}
