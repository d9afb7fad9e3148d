/**
 * The inventory change log: every writer (seed, import, ops tools) records which homes, buildings
 * and markets it changed; the incremental indexer reads the pending entries, re-indexes exactly
 * those, and deletes the entries it applied. "Nothing changed" is one read of an empty collection,
 * and an entry written while a run works simply waits for the next run (none is lost to a
 * checkpoint that moved past it). With MongoDB proper, a change stream can feed the same log
 * (docs/decisions.md, "Incremental indexing").
 */
import { ObjectId } from 'mongodb';
import type { Collection } from 'mongodb';
import { traceCarrier, type TraceCarrier } from '../tracing';

export interface InventoryChangeRecord {
  _id: ObjectId;
  at: Date;
  /** Who wrote it (seed, import, …): for operators reading the log. */
  source: string;
  /** The whole inventory was replaced: only a full rebuild catches up. */
  full?: true;
  homes?: string[];
  properties?: string[];
  markets?: string[];
  /** The trace of the writer that recorded it (tracing on): the indexer run that applies it links to it. */
  trace?: TraceCarrier;
}

export interface ChangedIds {
  homes?: Iterable<string>;
  properties?: Iterable<string>;
  markets?: Iterable<string>;
}

/** Entries larger than this are split, so one entry stays far below the 16 MB document limit. */
const IDS_PER_ENTRY = 5_000;

function chunks(ids: Iterable<string> | undefined): string[][] {
  const all = [...new Set(ids ?? [])];
  const out: string[][] = [];
  for (let i = 0; i < all.length; i += IDS_PER_ENTRY) out.push(all.slice(i, i + IDS_PER_ENTRY));
  return out;
}

/** Records what a writer changed. Call it after the write it describes has been acknowledged. */
export async function recordChanges(log: Collection<InventoryChangeRecord>, source: string, changed: ChangedIds, now = new Date()): Promise<void> {
  const entries: InventoryChangeRecord[] = [];
  const carrier = traceCarrier();
  const traced = carrier ? { trace: carrier } : {};
  for (const homes of chunks(changed.homes)) entries.push({ _id: new ObjectId(), at: now, source, homes, ...traced });
  for (const properties of chunks(changed.properties)) entries.push({ _id: new ObjectId(), at: now, source, properties, ...traced });
  for (const markets of chunks(changed.markets)) entries.push({ _id: new ObjectId(), at: now, source, markets, ...traced });
  if (entries.length > 0) await log.insertMany(entries);
}

/** Records that the whole inventory was replaced (a seed): the indexer answers with a full rebuild. */
export async function recordFullReplacement(log: Collection<InventoryChangeRecord>, source: string, now = new Date()): Promise<void> {
  const carrier = traceCarrier();
  await log.insertOne({ _id: new ObjectId(), at: now, source, full: true, ...(carrier ? { trace: carrier } : {}) });
}

/** The entries not yet applied by the indexer. The log holds only those, so it stays small. */
export async function pendingChanges(log: Collection<InventoryChangeRecord>, limit = 10_000): Promise<InventoryChangeRecord[]> {
  return log.find({}, { limit }).toArray();
}

/** Whether any entry waits for the indexer: one document's id read, however long the log (the watch asks every second). */
export async function hasPendingChanges(log: Collection<InventoryChangeRecord>): Promise<boolean> {
  return (await log.findOne({}, { projection: { _id: 1 } })) !== null;
}

/** Deletes the entries a run has applied (by `_id`, so entries written meanwhile stay pending). */
export async function acknowledgeChanges(log: Collection<InventoryChangeRecord>, entries: readonly InventoryChangeRecord[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 1_000) {
    await log.deleteMany({ _id: { $in: entries.slice(i, i + 1_000).map((e) => e._id) } });
  }
}

/** The union of what a batch of entries names. */
export function summarizeChanges(entries: readonly InventoryChangeRecord[]): {
  full: boolean;
  homes: Set<string>;
  properties: Set<string>;
  markets: Set<string>;
} {
  const sum = { full: false, homes: new Set<string>(), properties: new Set<string>(), markets: new Set<string>() };
  for (const e of entries) {
    if (e.full) sum.full = true;
    for (const id of e.homes ?? []) sum.homes.add(id);
    for (const id of e.properties ?? []) sum.properties.add(id);
    for (const id of e.markets ?? []) sum.markets.add(id);
  }
  return sum;
}
