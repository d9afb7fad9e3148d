/**
 * The indexer's lease on the real Mongo-wire server: one holder at a time, released, expired and taken
 * over (setup: test/integration/shared/indexer-world.ts; no inventory needed).
 */
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { acquireLease, LeaseHeldError } from '../../indexer/lease';
import { closeIndexerWorld, openBareStores } from './shared/indexer-world';

let config: Config;
let mongo: MongoHandle;
let es: EsClient;

beforeAll(async () => {
  ({ config, mongo, es } = await openBareStores());
});

afterAll(async () => {
  await closeIndexerWorld({ config, mongo, es });
});

describe('lease', () => {
  it('lets only one indexer hold it, and frees it on release', async () => {
    const first = await acquireLease(mongo.collections.indexerState, { ttlMs: 30_000, label: 'a' });
    await expect(acquireLease(mongo.collections.indexerState, { ttlMs: 30_000, label: 'b' })).rejects.toBeInstanceOf(LeaseHeldError);
    await first.release();
    const second = await acquireLease(mongo.collections.indexerState, { ttlMs: 30_000, label: 'b' });
    await second.release();
  });

  it('can be taken over once the holder let it expire, and the old holder learns it lost it', async () => {
    const stale = await acquireLease(mongo.collections.indexerState, { ttlMs: 1, label: 'crashed' });
    await new Promise((r) => setTimeout(r, 20));
    const fresh = await acquireLease(mongo.collections.indexerState, { ttlMs: 30_000, label: 'next' });
    await expect(stale.renew()).rejects.toThrow(/lost/);
    await fresh.release();
  });
});
