/**
 * The watches in MongoDB (the truth): saved with their first matches, found by the hash of their
 * token, ended, and their changes written and read in order. A change's id is its watch's id and its
 * number (`w_….7`), given once by the watch's own counter, so it never changes and pages read by `_id`.
 *
 * A batch of changes and the match state it moves are written in this order, so that a crash between
 * any two writes neither loses nor repeats a change: (1) one update of the watch numbers the batch and
 * keeps it, with the match state to reach, as its journal (`pending`); (2) the changes are upserted
 * under their numbered ids; (3) the match state moves; (4) the journal is cleared. A batch found
 * pending is completed, from its journal, before anything else is matched or recorded for that watch;
 * readers (the feed, the sender) see only the changes before a pending batch.
 */
import type { Collections } from '../kernel/store/collections';
import type { IsoDate } from '../kernel/inventory/records';
import type { WatchChangeKind, WatchChangeRecord, WatchEndReason, WatchPendingBatch, WatchRecord } from '../kernel/store/watch-records';
import { notFound } from '../kernel/errors';
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

/** Forgets a watch's matches of these homes. */
export async function releaseMatches(c: Collections, watchId: string, homeIds: readonly string[]): Promise<void> {
  if (homeIds.length === 0) return;
  await c.watchMatches.bulkWrite(
    homeIds.map((homeId) => ({ updateOne: { filter: { _id: homeId }, update: { $unset: { [`held.${watchId}`]: '' } } } })),
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

/** The last change number readers may see: the changes of a batch still pending are not all written yet. */
export const committedChanges = (watch: Pick<WatchRecord, 'changes' | 'pending'>): number => watch.changes - (watch.pending?.changes.length ?? 0);

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
  const pending: WatchPendingBatch = {
    at,
    changes: changes.map((ch) => ({ kind: ch.kind, home_slug: ch.home_slug, price: ch.price, card: ch.card })),
    hold: [...moves.hold].map(([home_id, m]) => ({ home_id, price: m.price, slug: m.slug })),
    release: [...moves.release],
  };
  const after = await c.watches.findOneAndUpdate(
    { _id: watchId, pending: null },
    { $inc: { changes: changes.length }, $set: { pending } },
    { returnDocument: 'after' },
  );
  if (!after) return [];
  return completeBatch(c, after);
}

/** Completes the batch a crash left pending on a watch, if any; its changes (none when nothing was pending). */
export async function completePending(c: Collections, watchId: string): Promise<WatchChangeRecord[]> {
  const watch = await c.watches.findOne({ _id: watchId });
  return watch?.pending ? completeBatch(c, watch) : [];
}

async function completeBatch(c: Collections, watch: WatchRecord): Promise<WatchChangeRecord[]> {
  const batch = watch.pending!;
  const first = committedChanges(watch) + 1;
  const records: WatchChangeRecord[] = batch.changes.map((ch, i) => ({
    _id: changeId(watch._id, first + i),
    watch_id: watch._id,
    seq: first + i,
    at: batch.at,
    ...ch,
  }));
  // Upserts by the numbered id: written again after a crash, a change is the same record, never a second one.
  await c.watchChanges.bulkWrite(
    records.map((r) => ({ replaceOne: { filter: { _id: r._id }, replacement: r, upsert: true } })),
    { ordered: true },
  );
  // A webhook's sender finds the watch in its outbox (an existing entry keeps its backoff).
  if (watch.webhook && watch.ended_at === null) {
    await c.watchOutbox.updateOne({ _id: watch._id }, { $setOnInsert: { next_at: batch.at, attempts: 0, failing_since: null } }, { upsert: true });
  }
  await moveMatches(c, watch._id, { hold: new Map(batch.hold.map((h) => [h.home_id, { price: h.price, slug: h.slug }])), release: batch.release });
  await c.watches.updateOne({ _id: watch._id, changes: watch.changes }, { $set: { pending: null } });
  return records;
}

async function moveMatches(c: Collections, watchId: string, moves: MatchMoves): Promise<void> {
  await holdMatches({ mongo: c }, watchId, moves.hold);
  await releaseMatches(c, watchId, moves.release);
}

/** A watch's changes numbered `from` to `to` (inclusive), in order, read by `_id`. */
export async function changesBetween(c: Collections, watchId: string, from: number, to: number): Promise<WatchChangeRecord[]> {
  if (to < from) return [];
  const ids = Array.from({ length: to - from + 1 }, (_, i) => changeId(watchId, from + i));
  const found = await c.watchChanges.find({ _id: { $in: ids } }).toArray();
  return found.sort((a, b) => a.seq - b.seq);
}
