/**
 * Writes a generated inventory into MongoDB: markets, buildings, homes (in batches, streamed),
 * photo blobs and policies. The inventory collections are replaced as a whole (cleared, then bulk
 * inserted: upserting one by one is two orders of magnitude slower on the Mongo-wire server), so
 * seeding is idempotent; booking intents and policies edited by ops are left alone.
 */
import type { Document, OptionalUnlessRequiredId } from 'mongodb';
import type { Collection } from 'mongodb';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../../services/kernel/inventory/records';
import { ensurePolicies } from '../../services/policies/store';
import { ensureIndexes, type Collections, type PhotoBlobRecord } from '../../services/kernel/store/collections';
import { recordFullReplacement } from '../../services/kernel/store/inventory-changes';

export interface InventoryInput {
  markets: MarketRecord[];
  properties: PropertyRecord[];
  homes: Iterable<HomeRecord>;
  photoIds: string[];
  renderPhoto: (id: string) => Promise<PhotoBlobRecord>;
}

export interface SeedSummary {
  markets: number;
  properties: number;
  homes: number;
  photos: number;
}

const BATCH = 1000;

async function insertAll<T extends Document & { _id: string }>(coll: Collection<T>, docs: T[]): Promise<void> {
  if (docs.length === 0) return;
  await coll.insertMany(docs as OptionalUnlessRequiredId<T>[], { ordered: false });
}

export async function seedInventory(c: Collections, input: InventoryInput, onProgress?: (homes: number) => void): Promise<SeedSummary> {
  // Dropping is one atomic step per collection; the indexes are recreated right after.
  for (const coll of [c.markets, c.properties, c.homes]) {
    // The driver answers false for MongoDB's NamespaceNotFound; mongo-java-server's error has no code, only "ns not found".
    await coll.drop().catch((err: { message?: string }) => {
      if (!/ns not found/i.test(err.message ?? '')) throw err;
    });
  }
  await ensureIndexes(c);
  await ensurePolicies(c, new Date());
  const existingPhotos = new Set((await c.photos.find({}, { projection: { _id: 1 } }).toArray()).map((p) => p._id));
  const missing = input.photoIds.filter((id) => !existingPhotos.has(id));
  for (let i = 0; i < missing.length; i += 20) {
    await insertAll(c.photos, await Promise.all(missing.slice(i, i + 20).map(input.renderPhoto)));
  }
  await insertAll(c.markets, input.markets);
  for (let i = 0; i < input.properties.length; i += BATCH) {
    await insertAll(c.properties, input.properties.slice(i, i + BATCH));
  }
  let homes = 0;
  let batch: HomeRecord[] = [];
  for (const home of input.homes) {
    batch.push(home);
    if (batch.length === BATCH) {
      await insertAll(c.homes, batch);
      homes += batch.length;
      onProgress?.(homes);
      batch = [];
    }
  }
  await insertAll(c.homes, batch);
  homes += batch.length;
  onProgress?.(homes);
  // The whole inventory changed: the indexer's next run is a full rebuild.
  await recordFullReplacement(c.inventoryChanges, 'seed');
  return { markets: input.markets.length, properties: input.properties.length, homes, photos: missing.length };
}
