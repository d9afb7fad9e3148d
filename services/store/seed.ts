/**
 * Writes a generated inventory into MongoDB: markets, buildings, homes (in batches, streamed),
 * photo blobs and policies. Re-running with the same inputs rewrites the same records (ids are
 * deterministic), so seeding is idempotent.
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { Collection } from 'mongodb';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../domain/inventory';
import { ensurePolicies } from '../policies/store';
import { ensureIndexes, type Collections, type PhotoBlobRecord } from './collections';

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

async function replaceAll<T extends Document & { _id: string }>(coll: Collection<T>, docs: T[]): Promise<void> {
  if (docs.length === 0) return;
  const ops = docs.map(
    (doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } }) as unknown as AnyBulkWriteOperation<T>,
  );
  await coll.bulkWrite(ops, { ordered: false });
}

export async function seedInventory(
  c: Collections,
  input: InventoryInput,
  onProgress?: (homes: number) => void,
): Promise<SeedSummary> {
  await ensureIndexes(c);
  await ensurePolicies(c, new Date());
  const existingPhotos = new Set((await c.photos.find({}, { projection: { _id: 1 } }).toArray()).map((p) => p._id));
  const missing = input.photoIds.filter((id) => !existingPhotos.has(id));
  for (let i = 0; i < missing.length; i += 20) {
    await replaceAll(c.photos, await Promise.all(missing.slice(i, i + 20).map(input.renderPhoto)));
  }
  await replaceAll(c.markets, input.markets);
  for (let i = 0; i < input.properties.length; i += BATCH) {
    await replaceAll(c.properties, input.properties.slice(i, i + BATCH));
  }
  let homes = 0;
  let batch: HomeRecord[] = [];
  for (const home of input.homes) {
    batch.push(home);
    if (batch.length === BATCH) {
      await replaceAll(c.homes, batch);
      homes += batch.length;
      onProgress?.(homes);
      batch = [];
    }
  }
  await replaceAll(c.homes, batch);
  homes += batch.length;
  onProgress?.(homes);
  return { markets: input.markets.length, properties: input.properties.length, homes, photos: missing.length };
}
