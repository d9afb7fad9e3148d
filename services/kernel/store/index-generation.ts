/**
 * The index generation: a counter in `indexer_state` that the indexer moves around every write that
 * can change what search shows, so that a copy of the service can keep what it read from MongoDB and
 * still never serve it once search shows something newer (docs/decisions.md, "Reads as fresh as search").
 *
 * A run that writes first marks the generation `applying` (before anything it writes can be seen),
 * and after its last write is visible (refreshed, or the alias swapped) moves it again with `applying`
 * cleared. A record read from MongoDB after a generation was read that is not `applying` is at least
 * as new as every document search shows for as long as the generation stays the same.
 */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from './collections';

const GENERATION_ID = 'generation';

export interface IndexGeneration {
  /** Moves at the start and at the end of every indexer write. */
  n: number;
  /** An indexer run is writing: what search shows may be newer than anything read before it ends. */
  applying: boolean;
}

export async function readGeneration(state: Collection<IndexerStateRecord>): Promise<IndexGeneration> {
  const doc = await state.findOne({ _id: GENERATION_ID });
  return { n: typeof doc?.n === 'number' ? doc.n : 0, applying: doc?.applying === true };
}

async function moveGeneration(state: Collection<IndexerStateRecord>, applying: boolean): Promise<void> {
  // The record, typed for the fields it carries.
  const typed = state as unknown as Collection<{ _id: string; n?: number; applying?: boolean }>;
  await typed.updateOne({ _id: GENERATION_ID }, { $inc: { n: 1 }, $set: { applying } }, { upsert: true });
}

/**
 * Runs `write` (the writes that make changes searchable) between the two moves of the generation.
 * The second move happens whether or not `write` succeeds: part of it may be visible. A run that dies
 * between them leaves `applying` set, and copies then read MongoDB every time until the next run ends.
 * The indexer's lease keeps two runs from overlapping, so one flag is enough.
 */
export async function applyingToIndex<T>(state: Collection<IndexerStateRecord>, write: () => Promise<T>): Promise<T> {
  await moveGeneration(state, true);
  try {
    return await write();
  } finally {
    await moveGeneration(state, false);
  }
}
