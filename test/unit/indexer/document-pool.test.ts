/**
 * The document pool builds the same documents on worker threads as a small rebuild builds in its own
 * thread (indexer/document-pool.ts), skips the same homes for the same reasons, and a small inventory
 * starts no thread.
 */
import { BSON } from 'mongodb';
import { pooledDocuments, workersFor, IN_PROCESS_BELOW_HOMES, defaultWorkers } from '../../../indexer/document-pool';
import type { PoolSetup } from '../../../indexer/document-batch';
import type { PrebuiltDocument } from '../../../indexer/bulk-load';
import { generateInventory } from '../../../stack/demo/generate';

const today = '2027-01-10';
const inv = generateInventory({ seed: 11, homes: 120, today });
// One building left out of the lookups: its homes are skipped, with a reason, on either path.
const [missing, ...kept] = inv.properties;
const setup: PoolSetup = {
  lookups: { properties: new Map(kept.map((p) => [p._id, p])), markets: new Map(inv.markets.map((m) => [m.slug, m])) },
  today,
  routingKeys: { [inv.markets[0].slug]: 'key-0' },
};

async function* batchesOf(size: number): AsyncGenerator<Uint8Array[]> {
  const homes = [...inv.homes].map((h) => BSON.serialize(h));
  for (let i = 0; i < homes.length; i += size) yield homes.slice(i, i + size);
}

async function build(workers: number): Promise<{ documents: PrebuiltDocument[]; skipped: string[] }> {
  const documents: PrebuiltDocument[] = [];
  const skipped: string[] = [];
  for await (const d of pooledDocuments(batchesOf(25), setup, (r) => skipped.push(r), workers)) documents.push(d);
  return { documents: documents.sort((a, b) => a.id.localeCompare(b.id)), skipped: skipped.sort() };
}

describe('the document pool', () => {
  it('builds on worker threads exactly the documents a rebuild builds in its own thread, skipping the same homes', async () => {
    const [inline, pooled] = [await build(0), await build(2)];
    expect(pooled).toEqual(inline);
    const indexable = [...inv.homes].filter((h) => h.published && h.deleted_at === null);
    const ofMissing = indexable.filter((h) => h.property_id === missing._id);
    expect(ofMissing.length).toBeGreaterThan(0);
    expect(inline.documents).toHaveLength(indexable.length - ofMissing.length);
    expect(inline.skipped).toHaveLength(ofMissing.length);
    expect(inline.documents.filter((d) => d.routing === 'key-0').length).toBeGreaterThan(0);
  }, 60_000);

  it('starts no thread for an inventory under the threshold, and one per core from it', () => {
    expect(workersFor(0)).toBe(0);
    expect(workersFor(IN_PROCESS_BELOW_HOMES - 1)).toBe(0);
    expect(workersFor(IN_PROCESS_BELOW_HOMES)).toBe(defaultWorkers());
  });
});
