/**
 * The watches in MongoDB (the truth): saved with their first matches, found by the hash of their
 * token, ended, and their changes written and read in order. A change's id is its watch's id and its
 * number (`w_….7`), given once by the watch's own counter, so it never changes and pages read by `_id`.
 */
import type { Collections } from '../kernel/store/collections';
import type { IsoDate } from '../kernel/inventory/records';
import type { WatchChangeKind, WatchChangeRecord, WatchEndReason, WatchRecord } from '../kernel/store/watch-records';
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

/** Appends changes to a watch, in order: numbers are taken from its counter in one step, then the changes written under them. */
export async function appendChanges(c: Collections, watchId: string, changes: readonly NewChange[], at: Date): Promise<WatchChangeRecord[]> {
  if (changes.length === 0) return [];
  const after = await c.watches.findOneAndUpdate({ _id: watchId }, { $inc: { changes: changes.length } }, { returnDocument: 'after' });
  if (!after) return [];
  const first = after.changes - changes.length + 1;
  const records = changes.map((ch, i) => ({ _id: changeId(watchId, first + i), watch_id: watchId, seq: first + i, at, ...ch }));
  await c.watchChanges.insertMany(records, { ordered: true });
  // A webhook's sender finds the watch in its outbox (an existing entry keeps its backoff).
  if (after.webhook && after.ended_at === null) {
    await c.watchOutbox.updateOne({ _id: watchId }, { $setOnInsert: { next_at: at, attempts: 0, failing_since: null } }, { upsert: true });
  }
  return records;
}

/** A watch's changes numbered `from` to `to` (inclusive), in order, read by `_id`. */
export async function changesBetween(c: Collections, watchId: string, from: number, to: number): Promise<WatchChangeRecord[]> {
  if (to < from) return [];
  const ids = Array.from({ length: to - from + 1 }, (_, i) => changeId(watchId, from + i));
  const found = await c.watchChanges.find({ _id: { $in: ids } }).toArray();
  return found.sort((a, b) => a.seq - b.seq);
}
