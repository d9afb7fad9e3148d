/**
 * The watches in MongoDB (the truth): saved with their first matches, found by the hash of their
 * token, ended, and their changes written and read in order. A change's id is its watch's id and its
 * number (`w_….7`), given once by the watch's own counter, so it never changes. A watch's changes of one
 * batch are kept in one record (a run) under its first change's id, never across a block of CHANGE_BLOCK
 * numbers, so a page of changes is read by `_id` from its block's start.
 *
 * A batch of changes (the matching's, for many watches at once) is recorded in this order, so that a
 * crash between any two writes neither loses nor repeats a change: (1) the changes are written in runs
 * under their numbered ids, past each watch's counter, where no reader looks (a batch that stops here
 * leaves records the next batches write over, numbered from the same counters); (2) the batch's journal is
 * written, its parts (each watch's counter before and after, the match state to reach, whether its
 * webhook is owed; written beside the changes) and then its commit record: from here the batch is
 * recorded; (3) the counters move past the changes (readers, the feed and the sender, see the batch
 * whole from each watch's move) and the match state moves, then the webhooks owed find their watches in
 * the outbox; (4) the commit record is removed, then the parts. A journal found committed is completed
 * (3, 4: each write sets an absolute state, so doing it twice is doing it once) before anything else is
 * matched. Each step is one request for every watch of the batch, and each watch is written once, in (3).
 *
 * A watch may also hold a journal of its own (`pending`), written by an earlier build that journaled
 * on each watch: it is completed the same way before the watch is matched again.
 */
import { createHash, randomUUID } from 'node:crypto';
import { MongoBulkWriteError } from 'mongodb';
import type { Collections } from '../kernel/store/collections';
import type { IsoDate } from '../kernel/inventory/records';
import type {
  StoredRunChange,
  StoredWatchChangeRecord,
  StoredWatchRunRecord,
  WatchCardRecord,
  WatchChangeKind,
  WatchChangeRecord,
  WatchEndReason,
  WatchJournalEntry,
  WatchRecord,
} from '../kernel/store/watch-records';
import { notFound } from '../kernel/errors';
import { findByIds } from '../kernel/store/by-ids';
import { liveReaders } from '../kernel/store/index-readers';
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
 * module's comment: exact across a crash). A batch a crash left committed is completed first.
 */
export async function appendChanges(
  c: Collections,
  watchId: string,
  changes: readonly NewChange[],
  at: Date,
  moves: MatchMoves = NO_MOVES,
): Promise<WatchChangeRecord[]> {
  await completeCommittedBatch(c);
  await completePending(c, watchId);
  if (changes.length === 0) {
    await moveMatches(c, watchId, moves);
    return [];
  }
  const watch = await c.watches.findOne({ _id: watchId });
  return watch ? appendManyChanges(c, [{ watch, changes, moves }], at) : [];
}

/**
 * Completes a journal an earlier build left on a watch (`pending`: its counter already moved), if any;
 * its changes (none when there was none).
 */
export async function completePending(c: Collections, watchId: string): Promise<WatchChangeRecord[]> {
  const watch = await c.watches.findOne({ _id: watchId });
  if (!watch?.pending) return [];
  const batch = watch.pending;
  // That build's journal may hold its changes, not all written yet.
  const journaled = journaledRecords(watch);
  await writeChanges(c, journaled, 'singles');
  const records = batch.changes ? journaled : await changesBetween(c, watch._id, watch.changes - (batch.count ?? 0) + 1, watch.changes);
  const webhook = Boolean(watch.webhook) && watch.ended_at === null;
  await applyJournal(c, [{ watch_id: watch._id, from: watch.changes, count: 0, webhook, hold: batch.hold, release: batch.release }], batch.at);
  await c.watches.updateOne({ _id: watch._id }, { $set: { pending: null } });
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
function takenIds(err: unknown, records: ReadonlyArray<{ _id: string }>): Set<string> | null {
  if (!(err instanceof MongoBulkWriteError)) return null;
  const errors = [err.writeErrors].flat();
  if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) return null;
  return new Set(errors.map((e) => records[e.index]!._id));
}

/** A card's id: the hash of what it shows (the same card is one record, whichever changes show it). */
const cardId = (card: Record<string, unknown>): string => createHash('sha256').update(JSON.stringify(card)).digest('base64url');

/**
 * A record of changes never spans two blocks of this many numbers: the record holding a change is among
 * those whose ids are the numbers from its block's start to it, so a reader asks for those ids
 * (`readChangeRanges`), and a record a stopped batch left past a counter is written over, under the same id,
 * before that counter passes it (a batch's records start at the counter's next number or at a block's start).
 */
export const CHANGE_BLOCK = 32;

/** The first number of the block holding change number `seq` (numbers start at 1). */
const blockStart = (seq: number): number => seq - ((seq - 1) % CHANGE_BLOCK);

/**
 * Written as runs: each watch's consecutive changes of the batch in one record under the id of the first,
 * cut where a block starts (the bench's 12,521 changes of 2,919 watches: 2,919 records, inserted in
 * 0.55-0.80 s where a record per change took the Mongo-wire server 1.4-1.5 s). Inserted (the server's
 * cheapest write: no query, no match), and those whose ids a stopped batch left taken, past the counter
 * where no reader looks, written over in one more request. Written again after a crash, a run is the same
 * record, never a second one. Each card once, beside them, under the hash of its content: of 7,900 changes
 * with a card in a batch of 12,500, 2,250 cards differ (many watches see the same home at the same price),
 * and the cards were four fifths of the batch's bytes.
 */
async function writeChanges(c: Collections, records: readonly WatchChangeRecord[], layout: ChangeLayout): Promise<void> {
  if (records.length === 0) return;
  const idOf = new Map<Record<string, unknown>, string>();
  const cards = new Map<string, WatchCardRecord>();
  const runs: StoredWatchRunRecord[] = [];
  let run: StoredWatchRunRecord | undefined;
  for (const { card, watch_id, seq, at, kind, home_slug, price } of records) {
    let card_id: string | null = null;
    if (card) {
      card_id = idOf.get(card) ?? null;
      if (card_id === null) {
        card_id = cardId(card);
        idOf.set(card, card_id);
        cards.set(card_id, { _id: card_id, card });
      }
    }
    // One record per change while a copy that reads no runs is alive: each is a run of one, under the same id.
    if (!run || run.watch_id !== watch_id || run.first + run.changes.length !== seq || blockStart(seq) === seq || layout === 'singles') {
      run = { _id: changeId(watch_id, seq), watch_id, first: seq, at, changes: [] };
      runs.push(run);
    }
    run.changes.push({ kind, home_slug, price, card_id });
  }
  const stored: Array<StoredWatchRunRecord | StoredWatchChangeRecord> =
    layout === 'runs' ? runs : runs.map(({ _id, watch_id, first, at, changes: [ch] }) => ({ _id, watch_id, seq: first, at, ...ch! }));
  await both(insertCards(c, [...cards.values()]), insertRuns(c, stored));
}

/** How a batch's changes are kept: in runs, or one record each (as a build before runs wrote them). */
export type ChangeLayout = 'runs' | 'singles';

/**
 * Runs when every copy alive reads them (its record in `indexer_state` says so); one record per change
 * while a copy of an earlier build still serves a feed, which reads a record per change (a rolling
 * deploy: the new layout starts once the last old copy stopped).
 */
export async function changeLayout(c: Collections): Promise<ChangeLayout> {
  return (await liveReaders(c.indexerState)).every((r) => r.reads_change_runs) ? 'runs' : 'singles';
}

/** Cards inserted; one already there is the same card (its id is its content's hash). */
async function insertCards(c: Collections, cards: readonly WatchCardRecord[]): Promise<void> {
  if (cards.length === 0) return;
  try {
    await c.watchCards.insertMany([...cards], { ordered: false });
  } catch (err) {
    if (!takenIds(err, cards)) throw err;
  }
}

async function insertRuns(c: Collections, runs: ReadonlyArray<StoredWatchRunRecord | StoredWatchChangeRecord>): Promise<void> {
  try {
    await c.watchChanges.insertMany([...runs], { ordered: false });
  } catch (err) {
    const taken = takenIds(err, runs);
    if (!taken) throw err;
    await c.watchChanges.bulkWrite(
      runs.filter((r) => taken.has(r._id)).map((r) => ({ replaceOne: { filter: { _id: r._id }, replacement: r, upsert: true } })),
      { ordered: false },
    );
  }
}

/** A watch's batch: its changes and the match state they move to. */
export interface WatchBatch {
  watch: WatchRecord;
  changes: readonly NewChange[];
  moves: MatchMoves;
}

/** The journal's commit record, and its parts' ids (each batch's own: a part is never another batch's). */
const COMMIT = 'batch';
const partId = (batch: string, n: number): string => `${batch}.${n}`;

/**
 * Step (4): the commit removed, then its parts and those a batch stopped before its commit left (the
 * journal holds a batch's records at most, so the filter reads a handful).
 */
async function endJournal(c: Collections, at: Date): Promise<void> {
  await c.watchJournal.deleteOne({ _id: COMMIT });
  await c.watchJournal.deleteMany({ _id: { $ne: COMMIT }, at: { $lte: at } });
}
/** Held or released homes per part at most (a part stays far below MongoDB's 16 MB a document). */
const PART_MOVES = 20_000;

/**
 * Records the changes of many watches at once, in the four steps of the module's comment: their changes
 * are numbered from the counters of the records given (read after any journal was completed). Only the
 * worker holding the indexer's lease records changes, so nothing else moves a counter meanwhile: each
 * write names its record by `_id` alone (a filter on more fields costs the stack's Mongo-wire server a
 * scan of the collection per write: 5 ms a watch at 10,000 watches). `quiet`: other watches' match
 * states, moved with the batch's in one update per home (a held price that moved, no change; not
 * journaled: a crash before them leaves the price held before, as it would have left it without them).
 */
export async function appendManyChanges(
  c: Collections,
  batches: readonly WatchBatch[],
  at: Date,
  quiet: readonly WatchMoves[] = [],
): Promise<WatchChangeRecord[]> {
  const moving = batches.filter((b) => b.changes.length > 0);
  if (moving.length === 0) {
    await moveManyMatches(c, quiet);
    return [];
  }
  // (1) The changes, past each counter.
  const records = moving.flatMap(({ watch, changes }) =>
    changes.map((ch, i) => {
      const seq = watch.changes + 1 + i;
      return { _id: changeId(watch._id, seq), watch_id: watch._id, seq, at, kind: ch.kind, home_slug: ch.home_slug, price: ch.price, card: ch.card };
    }),
  );
  // (2) The journal: its parts, then its commit.
  const entries: WatchJournalEntry[] = moving.map(({ watch, changes, moves }) => ({
    watch_id: watch._id,
    from: watch.changes,
    count: changes.length,
    webhook: Boolean(watch.webhook) && watch.ended_at === null,
    hold: [...moves.hold].map(([home_id, m]) => ({ home_id, price: m.price, slug: m.slug })),
    release: [...moves.release],
  }));
  const batch = randomUUID();
  const parts = journalParts(entries);
  // (1) and the journal's parts at once (two collections): the commit follows both.
  await both(
    changeLayout(c).then((layout) => writeChanges(c, records, layout)),
    c.watchJournal.bulkWrite(
      parts.map((part, n) => ({ insertOne: { document: { _id: partId(batch, n), batch, at, entries: part } } })),
      { ordered: false },
    ),
  );
  await c.watchJournal.replaceOne({ _id: COMMIT }, { batch, at, parts: parts.length }, { upsert: true });
  // (3) and (4).
  const gone = await applyJournal(c, entries, at, quiet);
  await endJournal(c, at);
  return gone.size === 0 ? records : records.filter((r) => !gone.has(r.watch_id));
}

/** The entries in parts of at most PART_MOVES held or released homes (a watch's entry is never split). */
function journalParts(entries: readonly WatchJournalEntry[]): WatchJournalEntry[][] {
  const parts: WatchJournalEntry[][] = [[]];
  let size = 0;
  for (const entry of entries) {
    const moves = 1 + entry.hold.length + entry.release.length;
    if (size + moves > PART_MOVES && parts.at(-1)!.length > 0) {
      parts.push([]);
      size = 0;
    }
    parts.at(-1)!.push(entry);
    size += moves;
  }
  return parts;
}

/**
 * Step (3) of a committed journal: the counters, the outbox, the match state. A watch erased meanwhile
 * (erase-guest) is left out: the changes written for it go, and it holds none of the batch's homes.
 * Returns the ids of those watches.
 */
async function applyJournal(c: Collections, entries: readonly WatchJournalEntry[], at: Date, quiet: readonly WatchMoves[] = []): Promise<Set<string>> {
  // The counters and the match state at once (two collections; each write sets an absolute state).
  const [res] = await both(
    c.watches.bulkWrite(
      entries.map((e) => ({ updateOne: { filter: { _id: e.watch_id }, update: { $max: { changes: e.from + e.count } } } })),
      { ordered: false },
    ),
    moveManyMatches(c, [
      ...entries.map((e) => ({ watchId: e.watch_id, hold: new Map(e.hold.map((h) => [h.home_id, { price: h.price, slug: h.slug }])), release: e.release })),
      ...quiet,
    ]),
  );
  let gone = new Set<string>();
  if (res.matchedCount !== entries.length) {
    const found = new Set(
      (
        await findByIds(
          c.watches,
          entries.map((e) => e.watch_id),
        )
      ).map((w) => w._id),
    );
    gone = new Set(entries.filter((e) => !found.has(e.watch_id)).map((e) => e.watch_id));
    const erased = entries.filter((e) => gone.has(e.watch_id));
    await c.watchChanges.deleteMany({ _id: { $in: erased.flatMap(idsOf) } });
    // An erased watch holds none of the batch's homes.
    await moveManyMatches(
      c,
      erased.map((e) => ({ watchId: e.watch_id, hold: new Map(), release: [...e.release, ...e.hold.map((h) => h.home_id)] })),
    );
  }
  // After the counters: a webhook's sender that finds the watch in its outbox finds its changes (an existing entry keeps its backoff).
  const senders = entries.filter((e) => e.webhook && !gone.has(e.watch_id));
  if (senders.length > 0) {
    await c.watchOutbox.bulkWrite(
      senders.map((e) => ({
        updateOne: { filter: { _id: e.watch_id }, update: { $setOnInsert: { next_at: at, attempts: 0, failing_since: null } }, upsert: true },
      })),
      { ordered: false },
    );
  }
  return gone;
}

/** Two writes at once, both settled before a failure is thrown: a step that stops leaves no write of it in flight. */
async function both<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

/** The ids a journal entry's changes may be kept under (a run's id is its first change's). */
const idsOf = (e: WatchJournalEntry): string[] => changeIdsBetween(e.watch_id, e.from + 1, e.from + e.count);

/**
 * Completes the batch a crash left committed, if any (before anything else is matched): its changes,
 * in order (none when no batch was left).
 */
export async function completeCommittedBatch(c: Collections): Promise<WatchChangeRecord[]> {
  const commit = await c.watchJournal.findOne({ _id: COMMIT });
  if (!commit) return [];
  const parts = await findByIds(
    c.watchJournal,
    Array.from({ length: commit.parts ?? 0 }, (_, n) => partId(commit.batch, n)),
  );
  if (parts.length !== commit.parts || parts.some((p) => p.batch !== commit.batch)) {
    throw new Error(`watch journal: the committed batch ${commit.batch} lacks parts: its changes cannot be completed`);
  }
  const entries = parts.sort((a, b) => a._id.localeCompare(b._id, 'en', { numeric: true })).flatMap((p) => p.entries ?? []);
  const gone = await applyJournal(c, entries, commit.at);
  await endJournal(c, commit.at);
  const kept = entries.filter((e) => !gone.has(e.watch_id));
  const found = await readChangeRanges(
    c,
    kept.map((e) => ({ watchId: e.watch_id, from: e.from + 1, to: e.from + e.count })),
  );
  return found.sort((a, b) => (a.watch_id === b.watch_id ? a.seq - b.seq : a.watch_id < b.watch_id ? -1 : 1));
}

async function moveMatches(c: Collections, watchId: string, moves: MatchMoves): Promise<void> {
  await moveManyMatches(c, [{ watchId, hold: moves.hold, release: moves.release }]);
}

/** A watch's match state moved: the homes it holds now (with what it saw of them) and those it let go. */
export interface WatchMoves {
  watchId: string;
  hold: Matches;
  release: readonly string[];
}

/** Several watches' match states moved at once: one update per home (the watches it now matches set, those it left unset). */
export async function moveManyMatches(c: Collections, moves: readonly WatchMoves[]): Promise<void> {
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

/** The ids of a watch's changes numbered `from` to `to` (inclusive). */
export const changeIdsBetween = (watchId: string, from: number, to: number): string[] =>
  to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => changeId(watchId, from + i));

/** A watch's changes numbered `from` to `to` (inclusive), in order, read by `_id`. */
export async function changesBetween(c: Collections, watchId: string, from: number, to: number): Promise<WatchChangeRecord[]> {
  return (await readChangeRanges(c, [{ watchId, from, to }])).sort((a, b) => a.seq - b.seq);
}

/** A watch's changes numbered `from` to `to` (inclusive). */
export interface ChangeRange {
  watchId: string;
  from: number;
  to: number;
}

/**
 * The changes of these ranges that exist (in no particular order), each with its card: the records whose
 * ids run from each range's block start to its end, read by `_id`, their changes in the ranges kept. A
 * change an earlier build wrote alone gives way to a run holding the same number (a run is written later).
 */
export async function readChangeRanges(c: Collections, ranges: readonly ChangeRange[]): Promise<WatchChangeRecord[]> {
  const wanted = new Map(ranges.filter((r) => r.from <= r.to).map((r) => [r.watchId, r]));
  if (wanted.size === 0) return [];
  const stored = await findByIds(
    c.watchChanges,
    [...wanted.values()].flatMap((r) => changeIdsBetween(r.watchId, blockStart(r.from), r.to)),
  );
  const found = new Map<string, { change: Omit<WatchChangeRecord, 'card'>; card: Record<string, unknown> | null; cardId: string | null; run: boolean }>();
  const keep = (watchId: string, seq: number, run: boolean, at: Date, ch: StoredRunChange | StoredWatchChangeRecord): void => {
    const range = wanted.get(watchId);
    const id = changeId(watchId, seq);
    if (!range || seq < range.from || seq > range.to || (!run && found.get(id)?.run)) return;
    const card = 'card' in ch ? (ch.card ?? null) : null;
    found.set(id, {
      change: { _id: id, watch_id: watchId, seq, at, kind: ch.kind, home_slug: ch.home_slug, price: ch.price },
      card,
      cardId: card ? null : (ch.card_id ?? null),
      run,
    });
  };
  for (const doc of stored) {
    if ('changes' in doc) doc.changes.forEach((ch, i) => keep(doc.watch_id, doc.first + i, true, doc.at, ch));
    else keep(doc.watch_id, doc.seq, false, doc.at, doc);
  }
  const cardIds = new Set([...found.values()].flatMap((f) => (f.cardId ? [f.cardId] : [])));
  const cards = new Map((await findByIds(c.watchCards, cardIds)).map((d) => [d._id, d.card]));
  return [...found.values()].map((f) => ({ ...f.change, card: f.card ?? (f.cardId ? (cards.get(f.cardId) ?? null) : null) }));
}
