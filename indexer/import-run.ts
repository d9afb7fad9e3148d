/** Applies parsed import lines to MongoDB in batches, checking references as it goes. */
import type { Collections } from '../services/kernel/store/collections';
import { parseImportLine, type ImportKind, type ParsedLine } from './import-records';
import { recordChanges } from '../services/kernel/store/inventory-changes';

export interface ImportSummary {
  imported: Record<ImportKind, number>;
  errors: { line: number; reason: string }[];
}

/** Records written between two change-log entries (each entry is written after its writes). */
const CHANGES_PER_ENTRY = 500;

type Known = { markets: Set<string>; properties: Set<string> };
type Changed = { homes: Set<string>; properties: Set<string>; markets: Set<string> };

/** Writes one valid record, stamped with the time of the write (`now`). */
async function writeRecord(c: Collections, parsed: Extract<ParsedLine, { ok: true }>, now: Date, known: Known, changed: Changed): Promise<void> {
  if (parsed.kind === 'market') {
    await c.markets.replaceOne({ _id: parsed.record._id }, { ...parsed.record, updated_at: now }, { upsert: true });
    known.markets.add(parsed.record._id);
    changed.markets.add(parsed.record._id);
  } else if (parsed.kind === 'property') {
    const p = parsed.record;
    if (!known.markets.has(p.market_slug)) throw new Error(`unknown market_slug "${p.market_slug}"`);
    await c.properties.updateOne({ _id: p._id }, { $set: { ...p, updated_at: now }, $setOnInsert: { created_at: now } }, { upsert: true });
    known.properties.add(p._id);
    changed.properties.add(p._id);
  } else {
    const h = parsed.record;
    if (!known.markets.has(h.market_slug)) throw new Error(`unknown market_slug "${h.market_slug}"`);
    if (!known.properties.has(h.property_id)) throw new Error(`unknown property_id "${h.property_id}"`);
    await c.homes.updateOne({ _id: h._id }, { $set: { ...h, updated_at: now, deleted_at: null }, $setOnInsert: { created_at: now } }, { upsert: true });
    changed.homes.add(h._id);
  }
}

/**
 * Each write is stamped with the time it happens (`clock()`), and what was written is recorded in
 * the inventory change log every CHANGES_PER_ENTRY records and at the end (also after a failure),
 * so the next incremental index run picks it up.
 */
export async function importLines(c: Collections, lines: AsyncIterable<string>, clock: () => Date = () => new Date()): Promise<ImportSummary> {
  // Take the iterator before any await: readline drops lines emitted before iteration starts.
  const iterator = lines[Symbol.asyncIterator]();
  const summary: ImportSummary = { imported: { market: 0, property: 0, home: 0 }, errors: [] };
  const known: Known = {
    markets: new Set((await c.markets.find({}, { projection: { _id: 1 } }).toArray()).map((m) => m._id)),
    properties: new Set((await c.properties.find({}, { projection: { _id: 1 } }).toArray()).map((p) => p._id)),
  };
  const changed: Changed = { homes: new Set(), properties: new Set(), markets: new Set() };
  let unrecorded = 0;
  const recordWritten = async (): Promise<void> => {
    if (unrecorded === 0) return;
    await recordChanges(c.inventoryChanges, 'import', changed, clock());
    for (const ids of Object.values(changed)) ids.clear();
    unrecorded = 0;
  };
  let n = 0;
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      n += 1;
      if (next.value.trim() === '') continue;
      const parsed = parseImportLine(next.value);
      if (!parsed.ok) {
        summary.errors.push({ line: n, reason: parsed.reason });
        continue;
      }
      try {
        await writeRecord(c, parsed, clock(), known, changed);
        summary.imported[parsed.kind] += 1;
        unrecorded += 1;
        if (unrecorded >= CHANGES_PER_ENTRY) await recordWritten();
      } catch (err) {
        const code = (err as { code?: number }).code;
        summary.errors.push({ line: n, reason: code === 11000 ? 'slug already used by another record' : (err as Error).message });
      }
    }
  } finally {
    await recordWritten();
  }
  return summary;
}
