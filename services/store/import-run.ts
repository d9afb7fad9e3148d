/** Applies parsed import lines to MongoDB in batches, checking references as it goes. */
import type { Collections } from './collections';
import { parseImportLine, type ImportKind } from './import-records';

export interface ImportSummary {
  imported: Record<ImportKind, number>;
  errors: { line: number; reason: string }[];
}

/**
 * Each write is stamped with the time it happens (`clock()`), not the import's start: an
 * incremental index run during a long import must still see the records written after it.
 */
export async function importLines(c: Collections, lines: AsyncIterable<string>, clock: () => Date = () => new Date()): Promise<ImportSummary> {
  // Take the iterator before any await: readline drops lines emitted before iteration starts.
  const iterator = lines[Symbol.asyncIterator]();
  const summary: ImportSummary = { imported: { market: 0, property: 0, home: 0 }, errors: [] };
  const knownMarkets = new Set((await c.markets.find({}, { projection: { _id: 1 } }).toArray()).map((m) => m._id));
  const knownProperties = new Set((await c.properties.find({}, { projection: { _id: 1 } }).toArray()).map((p) => p._id));
  let n = 0;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const raw = next.value;
    n += 1;
    if (raw.trim() === '') continue;
    const parsed = parseImportLine(raw);
    if (!parsed.ok) {
      summary.errors.push({ line: n, reason: parsed.reason });
      continue;
    }
    try {
      const now = clock();
      if (parsed.kind === 'market') {
        await c.markets.replaceOne({ _id: parsed.record._id }, { ...parsed.record, updated_at: now }, { upsert: true });
        knownMarkets.add(parsed.record._id);
      } else if (parsed.kind === 'property') {
        const p = parsed.record;
        if (!knownMarkets.has(p.market_slug)) throw new Error(`unknown market_slug "${p.market_slug}"`);
        await c.properties.updateOne(
          { _id: p._id },
          { $set: { ...p, updated_at: now }, $setOnInsert: { created_at: now } },
          { upsert: true },
        );
        knownProperties.add(p._id);
      } else {
        const h = parsed.record;
        if (!knownMarkets.has(h.market_slug)) throw new Error(`unknown market_slug "${h.market_slug}"`);
        if (!knownProperties.has(h.property_id)) throw new Error(`unknown property_id "${h.property_id}"`);
        await c.homes.updateOne(
          { _id: h._id },
          { $set: { ...h, updated_at: now, deleted_at: null }, $setOnInsert: { created_at: now } },
          { upsert: true },
        );
      }
      summary.imported[parsed.kind] += 1;
    } catch (err) {
      const code = (err as { code?: number }).code;
      summary.errors.push({ line: n, reason: code === 11000 ? 'slug already used by another record' : (err as Error).message });
    }
  }
  return summary;
}
