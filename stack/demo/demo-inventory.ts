/** Seeds the deterministic demo inventory (stack/demo) into MongoDB. */
import type { Collections } from '../../services/kernel/store/collections';
import { seedInventory, type SeedSummary } from './seed-inventory';
import { generateInventory } from './generate';
import { photoBlob, photoPool } from './photos';

export const DEMO_SEED = 42;
export const DEMO_HOMES = 3000;

export async function seedDemoInventory(
  c: Collections,
  opts: { seed: number; homes: number; today: string },
  onProgress?: (homes: number) => void,
): Promise<SeedSummary> {
  const inventory = generateInventory(opts);
  return seedInventory(
    c,
    { markets: inventory.markets, properties: inventory.properties, homes: inventory.homes, photoIds: photoPool(), renderPhoto: (id) => photoBlob(id) },
    onProgress,
  );
}
