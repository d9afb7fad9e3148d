/**
 * The matching of the homes an incremental run changed (docs/decisions.md, "Watches: a reverse
 * search"): the watches they may concern are found by Elasticsearch (the reverse search of
 * watch-index.ts, plus the watches that hold one of them now, read by the homes' ids), then every
 * (watch, its candidate homes) is decided exactly by `decide`, the watches' own searches restricted
 * to those homes (the service's search code: the same pricing and availability, many watches to a
 * request), and the difference with what each watch held is recorded (diff.ts). Never a loop over
 * all the watches; a watch whose answer moves nothing writes nothing.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../kernel/store/collections';
import type { IsoDate } from '../kernel/inventory/records';
import type { WatchChangeRecord, WatchMatchRecord, WatchRecord } from '../kernel/store/watch-records';
import { FACT_SOURCE_FIELDS, factsOfDocument, type FactFields, type HomeFacts, type KeptFacts } from '../kernel/store/home-facts';
import { findByIds } from '../kernel/store/by-ids';
import { ApiError } from '../kernel/errors';
import { diffMatches, type NowMatching, type Seen } from './diff';
import { isLive } from './owners';
import { appendManyChanges, completeCommittedBatch, completePending, endWatch, type WatchBatch, type WatchMoves } from './store';
import { candidateWatches, unindexWatch } from './watch-index';

export interface MatchingDeps {
  es: Client;
  mongo: Collections;
  config: { homesAlias: string };
}

/** A candidate watch and the changed homes it is decided on. */
export interface WatchQuestion {
  watch: WatchRecord;
  homeIds: readonly string[];
}

/**
 * Each watch's search restricted to its homes: what of them it matches now, with prices and cards,
 * or the error the search refuses it with.
 */
export type DecideWatches = (questions: readonly WatchQuestion[]) => Promise<Map<string, NowMatching[] | ApiError>>;

/**
 * The changed homes as the homes alias holds them now (a home gone from it has no facts: only its
 * holders see it). `known`: what the incremental run knows of the homes it is writing, the same
 * documents (only the lease's holder writes them); the others are read, once `indexed` (the run's
 * writes searchable).
 */
export async function homeFacts(deps: MatchingDeps, homeIds: readonly string[], known?: KeptFacts, indexed?: Promise<void>): Promise<HomeFacts[]> {
  const facts = known ? homeIds.flatMap((id) => known.get(id) ?? []) : [];
  const unknown = known ? homeIds.filter((id) => !known.has(id)) : homeIds;
  if (unknown.length === 0) return facts;
  await indexed;
  const res = await deps.es.search<FactFields>({
    index: deps.config.homesAlias,
    size: unknown.length,
    query: { ids: { values: [...unknown] } },
    _source: [...FACT_SOURCE_FIELDS],
  });
  return [...facts, ...res.hits.hits.flatMap((hit) => (hit._source ? [factsOfDocument(hit._source)] : []))];
}

export interface MatchingOutcome {
  watches: number;
  changes: WatchChangeRecord[];
  /** Milliseconds spent in each step: the reverse search (what the watches hold read beside it), reading the watches, deciding, writing. */
  steps: MatchingSteps;
}

export interface MatchingSteps {
  candidates: number;
  reads: number;
  decide: number;
  writes: number;
}

const NO_STEPS: MatchingSteps = { candidates: 0, reads: 0, decide: 0, writes: 0 };

/**
 * How long before the holds were read a watch may have been saved and still not held them then: its
 * `created_at` is its saving request's start by that copy's clock (the request's deadline and the clocks'
 * skew, with room).
 */
const SAVED_WHILE_READ_MS = 10 * 60_000;

export async function matchChangedHomes(
  deps: MatchingDeps,
  homeIds: readonly string[],
  today: IsoDate,
  now: Date,
  decide: DecideWatches,
  written?: KeptFacts,
  indexed?: Promise<void>,
): Promise<MatchingOutcome> {
  if (homeIds.length === 0) return { watches: 0, changes: [], steps: { ...NO_STEPS } };
  const steps = { ...NO_STEPS };
  let at = performance.now();
  const lap = (step: keyof MatchingSteps): void => {
    const t = performance.now();
    steps[step] += t - at;
    at = t;
  };
  // A batch a crash left committed is completed first: the match state it moves is the one this matching starts from.
  const recorded: WatchChangeRecord[] = await completeCommittedBatch(deps.mongo);
  // The reverse search (Elasticsearch) beside what the watches hold of these homes and those watches (MongoDB).
  const readFrom = Date.now();
  const [candidates, before] = await Promise.all([
    homeFacts(deps, homeIds, written, indexed).then((facts) => candidateWatches(deps, facts, today)),
    findByIds(deps.mongo.watchMatches, homeIds).then(async (holders) => ({ holders, watches: await findByIds(deps.mongo.watches, holderIds(holders)) })),
  ]);
  lap('candidates');
  let holders = before.holders;
  const read = holderIds(holders);
  // The watches whose records were asked for: one of them MongoDB does not have is erased.
  let asked = new Set([...read, ...candidates.keys()]);
  let watches = [
    ...before.watches,
    ...(await findByIds(
      deps.mongo.watches,
      [...candidates.keys()].filter((id) => !read.has(id)),
    )),
  ];
  // A watch is saved with what it holds, then indexed (tools/watch-search.ts): one the reverse search found
  // that may have been saved after its holds were read is read again with them, or it would see every home
  // it holds enter.
  if (watches.some((w) => !read.has(w._id) && w.created_at.getTime() >= readFrom - SAVED_WHILE_READ_MS))
    holders = await findByIds(deps.mongo.watchMatches, homeIds);
  // A candidate MongoDB no longer has (erase-guest deletes a guest's watches) leaves the reverse search.
  const kept = new Set(watches.map((w) => w._id));
  for (const id of [...candidates.keys()].filter((id) => !kept.has(id))) {
    candidates.delete(id);
    await unindexWatch(deps, id);
  }
  // So is a journal an earlier build left on a watch.
  const pending = watches.filter((w) => w.pending);
  if (pending.length > 0) {
    for (const w of pending) recorded.push(...(await completePending(deps.mongo, w._id)));
    holders = await findByIds(deps.mongo.watchMatches, homeIds);
    watches = await watchesOf(deps, candidates, holders);
    asked = new Set([...candidates.keys(), ...holderIds(holders)]);
  }
  // What the watches hold of these homes: a home that left the search (or the index) is seen here.
  const held = new Map<string, Map<string, Seen>>();
  for (const record of holders) {
    for (const [watchId, seen] of Object.entries(record.held ?? {})) {
      const map = held.get(watchId) ?? new Map<string, Seen>();
      map.set(record._id, seen);
      held.set(watchId, map);
      const list = candidates.get(watchId) ?? [];
      if (!list.includes(record._id)) list.push(record._id);
      candidates.set(watchId, list);
    }
  }
  // A watch erased since it held a home (erase-guest cannot find its holds) lets go of it here; one saved
  // since the watches were read (its holds read again above) is not among them and keeps its holds.
  const known = new Set(watches.map((w) => w._id));
  const forgotten = [...held]
    .filter(([watchId]) => asked.has(watchId) && !known.has(watchId))
    .map(([watchId, homes]) => ({ watchId, hold: new Map<string, Seen>(), release: [...homes.keys()] }));
  const questions: WatchQuestion[] = [];
  for (const watch of watches.sort((a, b) => (a._id < b._id ? -1 : 1))) {
    if (isLive(watch, today)) {
      questions.push({ watch, homeIds: candidates.get(watch._id) ?? [] });
      continue;
    }
    // An expired watch ends itself, and leaves the reverse search.
    if (watch.ended_at === null) await endWatch(deps.mongo, watch._id, 'expired', now);
    await unindexWatch(deps, watch._id);
  }
  lap('reads');
  // The watches' searches ask the homes' index: after the run's writes are searchable (not a step's time).
  await indexed;
  at = performance.now();
  const answers = await decide(questions);
  lap('decide');
  const batches: WatchBatch[] = [];
  const quiet: WatchMoves[] = [];
  for (const { watch, homeIds } of questions) {
    const answer = answers.get(watch._id) ?? [];
    if (answer instanceof ApiError) {
      // A search the service now refuses (its market is gone): the watch ends rather than stop every run.
      if (answer.status >= 500) throw answer;
      if (await endWatch(deps.mongo, watch._id, 'refused', now)) await unindexWatch(deps, watch._id);
      continue;
    }
    const before = held.get(watch._id) ?? new Map<string, Seen>();
    const diff = diffMatches(homeIds, before, answer);
    if (diff.changes.length > 0) {
      batches.push({ watch, changes: diff.changes, moves: { hold: diff.hold, release: diff.release } });
      continue;
    }
    // No change: only a held price or slug that moved is written, with the other watches' at once.
    const moved = new Map([...diff.hold].filter(([id, seen]) => before.get(id)?.price !== seen.price || before.get(id)?.slug !== seen.slug));
    if (moved.size > 0) quiet.push({ watchId: watch._id, hold: moved, release: [] });
  }
  // The changes are journaled before the counters and the match state move (store.ts): a crash loses and repeats none.
  // The held prices that moved with no change, and the holds of erased watches, go with the batch's moves (one update per home).
  recorded.push(...(await appendManyChanges(deps.mongo, batches, now, [...quiet, ...forgotten])));
  lap('writes');
  return { watches: watches.length, changes: recorded, steps };
}

/** The watches the reverse search found and those holding one of the homes, read by `_id`. */
async function watchesOf(deps: MatchingDeps, candidates: ReadonlyMap<string, string[]>, holders: readonly WatchMatchRecord[]): Promise<WatchRecord[]> {
  return findByIds(deps.mongo.watches, new Set([...candidates.keys(), ...holderIds(holders)]));
}

/** The watches that hold one of these homes. */
function holderIds(holders: readonly WatchMatchRecord[]): Set<string> {
  const ids = new Set<string>();
  for (const record of holders) for (const id of Object.keys(record.held ?? {})) ids.add(id);
  return ids;
}
