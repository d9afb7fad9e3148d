/**
 * The watches in MongoDB (the truth): saved with their first matches, found by the hash of their
 * token, ended, and their changes written and read in order. A change's id is its watch's id and its
 * number (`w_….7`), given once by the watch's own counter, so it never changes and pages read by `_id`.
 *
 * A batch of changes and the match state it moves are written in this order, so that a crash between
 * any two writes neither loses nor repeats a change: (1) the changes are written under their numbered
 * ids, past the watch's counter, where no reader looks (a batch that stops here leaves records the
 * next batch of the watch numbers from the same counter and writes over); (2) one update of the watch
 * moves its counter past them and keeps, as its journal (`pending`), how many and the match state to
 * reach: from here the batch is recorded, and readers (the feed, the sender) see it whole; (3) the
 * match state moves; (4) the journal is cleared. A batch found pending is completed from its journal
 * before anything else is matched or recorded for that watch. The cards go to MongoDB once, in (1).
 */
import { MongoBulkWriteError } from 'mongodb';
import type { Collections } from '../kernel/store/collections';
import type { IsoDate } from '../kernel/inventory/records';
import type { WatchChangeKind, WatchChangeRecord, WatchEndReason, WatchRecord } from '../kernel/store/watch-records';
import { notFound } from '../kernel/errors';
import { findByIds } from '../kernel/store/by-ids';
import { isLive } from './owners';
import { tokenHash } from './token';

export const changeId = (watchId: string, seq: number): string => `${watchId}.${seq}`;

const GONE = 'No live watch has this token: it never existed, was ended, or expired.';

/** The live watch a token opens, or the contract's 404 (looked up by the token's hash alone). */
export async function liveWatch(c: Collections, token: string, today: IsoDate): Promise<WatchRecord> {
  const watch = await c.watches.findOne({ token_hash: tokenHash(token) });
  if (!watch || !isLive(watch, today)) throw notFound('watch_not_found', GONE);
  return watch;
}

/** Ends a watch (once: a watch already ended keeps its first reason). True when this call ended it. */
export async function endWatch(c: Collections, watchId: string, reason: WatchEndReason, now: Date): Promise<boolean> {
  const res = await c.watches.updateOne({ _id: watchId, ended_at: null }, { $set: { ended_at: now, ended_reason: reason } });
  return res.modifiedCount === 1;
}

/** A watch's current matches: home id → the price and slug the search showed. */
export type Matches = Map<string, { price: number; slug: string }>;

/** Saves a new watch. */
export async function saveWatch({ mongo: c }: { mongo: Collections }, watch: WatchRecord): Promise<void> {
  await c.watches.insertOne(watch);
}

/** Records what a watch matches, home by home (each home's record lists the watches it matches). */
export async function holdMatches({ mongo: c }: { mongo: Collections }, watchId: string, matches: Matches): Promise<void> {
  if (matches.size === 0) return;
  await c.watchMatches.bulkWrite(
    [...matches].map(([homeId, m]) => ({
      updateOne: { filter: { _id: homeId }, update: { $set: { [`held.${watchId}`]: m } }, upsert: true },
    })),
    { ordered: false },
  );
}

export interface NewChange {
  kind: WatchChangeKind;
  home_slug: string;
  price: number | null;
  card: Record<string, unknown> | null;
}

/** How a batch moves a watch's match state: the homes it matches after, and those it no longer matches. */
export interface MatchMoves {
  hold: Matches;
  release: readonly string[];
}

const NO_MOVES: MatchMoves = { hold: new Map(), release: [] };

/** The last change number readers may see: a journal of an earlier build holds changes not all written yet. */
export const committedChanges = (watch: Pick<WatchRecord, 'changes' | 'pending'>): number => watch.changes - (watch.pending?.changes?.length ?? 0);

/**
 * Appends changes to a watch, in order, and moves its match state with them (the journal of the
 * module's comment: exact across a crash). A batch a crash left pending is completed first.
 */
export async function appendChanges(
  c: Collections,
  watchId: string,
  changes: readonly NewChange[],
  at: Date,
  moves: MatchMoves = NO_MOVES,
): Promise<WatchChangeRecord[]> {
  await completePending(c, watchId);
  if (changes.length === 0) {
    await moveMatches(c, watchId, moves);
    return [];
  }
  const watch = await c.watches.findOne({ _id: watchId });
  return watch ? appendManyChanges(c, [{ watch, changes, moves }], at) : [];
}

/** Completes the batch a crash left pending on a watch, if any; its changes (none when nothing was pending). */
export async function completePending(c: Collections, watchId: string): Promise<WatchChangeRecord[]> {
  const watch = await c.watches.findOne({ _id: watchId });
  if (!watch?.pending) return [];
  const batch = watch.pending;
  const records = batch.changes ? journaledRecords(watch) : await changesBetween(c, watch._id, watch.changes - (batch.count ?? 0) + 1, watch.changes);
  await completeBatches(c, [watch]);
  return records;
}

/** The changes an earlier build's journal holds: the same records however often it is completed. */
function journaledRecords(watch: WatchRecord): WatchChangeRecord[] {
  const batch = watch.pending!;
  const first = committedChanges(watch) + 1;
  return (batch.changes ?? []).map((ch, i) => ({ _id: changeId(watch._id, first + i), watch_id: watch._id, seq: first + i, at: batch.at, ...ch }));
}

const DUPLICATE_KEY = 11000;

/** The ids an unordered insert found taken (duplicate keys), or null when it failed otherwise. */
function takenIds(err: unknown, records: readonly WatchChangeRecord[]): Set<string> | null {
  if (!(err instanceof MongoBulkWriteError)) return null;
  const errors = [err.writeErrors].flat();
  if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) return null;
  return new Set(errors.map((e) => records[e.index]!._id));
}

/**
 * Written under their numbered ids: inserted (the server's cheapest write: no query, no match), and
 * those whose ids a stopped batch left taken, past the counter where no reader looks, written over in
 * one more request. Written again after a crash, a change is the same record, never a second one.
 */
async function writeChanges(c: Collections, records: readonly WatchChangeRecord[]): Promise<void> {
  if (records.length === 0) return;
  try {
    await c.watchChanges.insertMany([...records], { ordered: false });
  } catch (err) {
    const taken = takenIds(err, records);
    if (!taken) throw err;
    await c.watchChanges.bulkWrite(
      records.filter((r) => taken.has(r._id)).map((r) => ({ replaceOne: { filter: { _id: r._id }, replacement: r, upsert: true } })),
      { ordered: false },
    );
  }
}

/** Steps (3) and (4) of the module's comment for watches whose batch is pending, each step one request for all of them. */
async function completeBatches(c: Collections, watches: readonly WatchRecord[]): Promise<void> {
  // An earlier build's journal holds its changes, not yet all written.
  await writeChanges(c, watches.flatMap(journaledRecords));
  // A webhook's sender finds the watch in its outbox (an existing entry keeps its backoff).
  const senders = watches.filter((w) => w.webhook && w.ended_at === null);
  if (senders.length > 0) {
    await c.watchOutbox.bulkWrite(
      senders.map((w) => ({
        updateOne: { filter: { _id: w._id }, update: { $setOnInsert: { next_at: w.pending!.at, attempts: 0, failing_since: null } }, upsert: true },
      })),
      { ordered: false },
    );
  }
  await moveManyMatches(
    c,
    watches.map((w) => ({
      watchId: w._id,
      hold: new Map(w.pending!.hold.map((h) => [h.home_id, { price: h.price, slug: h.slug }])),
      release: w.pending!.release,
    })),
  );
  await c.watches.bulkWrite(
    watches.map((w) => ({ updateOne: { filter: { _id: w._id }, update: { $set: { pending: null } } } })),
    { ordered: false },
  );
}

/** A watch's batch: its changes and the match state they move to. */
export interface WatchBatch {
  watch: WatchRecord;
  changes: readonly NewChange[];
  moves: MatchMoves;
}

/**
 * appendChanges for many watches at once, in the same four steps, each one request for all of them:
 * their changes are numbered from the counters of the records given (read after any pending batch
 * was completed). Only the worker holding the indexer's lease records changes, so nothing else moves
 * a counter meanwhile: each write names its watch by `_id` alone (a filter on more fields costs the
 * stack's Mongo-wire server a scan of the collection per write: 5 ms a watch at 10,000 watches).
 */
export async function appendManyChanges(c: Collections, batches: readonly WatchBatch[], at: Date): Promise<WatchChangeRecord[]> {
  const moving = batches.filter((b) => b.changes.length > 0);
  if (moving.length === 0) return [];
  // (1) The changes, past each counter.
  const records = moving.flatMap(({ watch, changes }) =>
    changes.map((ch, i) => {
      const seq = watch.changes + 1 + i;
      return { _id: changeId(watch._id, seq), watch_id: watch._id, seq, at, kind: ch.kind, home_slug: ch.home_slug, price: ch.price, card: ch.card };
    }),
  );
  await writeChanges(c, records);
  // (2) The counters moved past them, each with its journal.
  const journaled: WatchRecord[] = moving.map(({ watch, changes, moves }) => ({
    ...watch,
    changes: watch.changes + changes.length,
    pending: {
      at,
      count: changes.length,
      hold: [...moves.hold].map(([home_id, m]) => ({ home_id, price: m.price, slug: m.slug })),
      release: [...moves.release],
    },
  }));
  const res = await c.watches.bulkWrite(
    moving.map(({ watch }, i) => ({
      updateOne: {
        filter: { _id: watch._id },
        update: { $set: { changes: journaled[i]!.changes, pending: journaled[i]!.pending } },
      },
    })),
    { ordered: false },
  );
  if (res.matchedCount !== moving.length)
    throw new Error('watch changes: a watch was removed while matching (its guest erased): the next matching starts again');
  // (3) and (4).
  await completeBatches(c, journaled);
  return records;
}

async function moveMatches(c: Collections, watchId: string, moves: MatchMoves): Promise<void> {
  await moveManyMatches(c, [{ watchId, hold: moves.hold, release: moves.release }]);
}

/** Several watches' match states moved at once: one update per home (the watches it now matches set, those it left unset). */
export async function moveManyMatches(c: Collections, moves: ReadonlyArray<{ watchId: string; hold: Matches; release: readonly string[] }>): Promise<void> {
  const byHome = new Map<string, { $set: Record<string, { price: number; slug: string }>; $unset: Record<string, ''> }>();
  const of = (homeId: string) => byHome.get(homeId) ?? byHome.set(homeId, { $set: {}, $unset: {} }).get(homeId)!;
  for (const { watchId, hold, release } of moves) {
    for (const [homeId, m] of hold) of(homeId).$set[`held.${watchId}`] = { price: m.price, slug: m.slug };
    for (const homeId of release) of(homeId).$unset[`held.${watchId}`] = '';
  }
  if (byHome.size === 0) return;
  await c.watchMatches.bulkWrite(
    [...byHome].map(([homeId, u]) => ({
      updateOne: {
        filter: { _id: homeId },
        update: { ...(Object.keys(u.$set).length > 0 ? { $set: u.$set } : {}), ...(Object.keys(u.$unset).length > 0 ? { $unset: u.$unset } : {}) },
        // A home's record is made by the first watch that holds it; releasing alone never makes one.
        upsert: Object.keys(u.$set).length > 0,
      },
    })),
    { ordered: false },
  );
}

/** A watch's changes numbered `from` to `to` (inclusive), in order, read by `_id`. */
export async function changesBetween(c: Collections, watchId: string, from: number, to: number): Promise<WatchChangeRecord[]> {
  if (to < from) return [];
  const ids = Array.from({ length: to - from + 1 }, (_, i) => changeId(watchId, from + i));
  const found = await findByIds(c.watchChanges, ids);
  return found.sort((a, b) => a.seq - b.seq);
}
