/**
 * The worker's schedule on the real Elasticsearch and Mongo-wire servers: a recorded change is
 * searchable within about a second of the watch's tick, without the cron; the live index is merged
 * once the change log has been quiet, not after each run; with nothing recorded the watch runs
 * nothing (setup: test/integration/shared/indexer-world.ts).
 */
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { createLogger } from '../../services/kernel/logger';
import { fullRebuild } from '../../indexer/full-rebuild';
import { startSchedule, type Schedule } from '../../indexer/schedule';
import { compactionNeed, shardCopies } from '../../indexer/compaction';
import { pendingChanges, recordChanges } from '../../services/kernel/store/inventory-changes';
import { readIndexerHistory } from '../../services/kernel/store/index-freshness';
import { closeIndexerWorld, openIndexerWorld, indexReads } from './shared/indexer-world';

let config: Config;
let mongo: MongoHandle;
let es: EsClient;
let schedule: Schedule | undefined;

/** A cron that does not fire while the tests run (midnight on January 1st). */
const NEVER = '0 0 1 1 *';
const WATCH_MS = 200;
const MERGE_QUIET_MS = 1_500;

beforeAll(async () => {
  ({ config, mongo, es } = await openIndexerWorld());
});

afterEach(async () => {
  await schedule?.stop();
  schedule = undefined;
});

afterAll(async () => {
  await closeIndexerWorld({ config, mongo, es });
});

const { opts, indexedDoc } = indexReads(() => ({ config, es }));

function start(): Schedule {
  const watched = { ...config, incrementalCron: NEVER, fullRebuildCron: NEVER, indexerWatchMs: WATCH_MS, indexerMergeQuietMs: MERGE_QUIET_MS };
  return startSchedule(es, mongo.collections, watched, createLogger('silent', 'indexer'));
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, withinMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() - started > withinMs) return { value, ms: Date.now() - started };
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function renameAndRecord(id: string, name: string): Promise<void> {
  await mongo.collections.homes.updateOne({ _id: id }, { $set: { name, updated_at: new Date() } });
  await recordChanges(mongo.collections.inventoryChanges, 'test', { homes: [id] });
}

describe('the worker schedule', () => {
  it('makes a recorded change searchable within seconds, with the cron minutes away', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const [home] = await mongo.collections.homes.find({ published: true, deleted_at: null }).limit(1).toArray();
    schedule = start();
    await renameAndRecord(home._id, 'Renamed while the worker watched');
    const seen = await until(
      () => indexedDoc(home._id),
      (doc) => doc?.name === 'Renamed while the worker watched',
      5_000,
    );
    expect(seen.value?.name).toBe('Renamed while the worker watched');
    expect(seen.ms).toBeLessThan(3_000);
    // The run deletes the entries it applied after making them searchable: a moment later, not before.
    const applied = await until(
      () => pendingChanges(mongo.collections.inventoryChanges),
      (pending) => pending.length === 0,
      5_000,
    );
    expect(applied.value).toEqual([]);
  });

  it('merges the live index once the change log has been quiet, not after each run', async () => {
    await fullRebuild(es, mongo.collections, opts());
    expect(compactionNeed(await shardCopies(es, config.homesAlias))).toBe('tidy');
    const homes = await mongo.collections.homes.find({ published: true, deleted_at: null }).limit(3).toArray();
    schedule = start();
    for (const [i, home] of homes.entries()) {
      await renameAndRecord(home._id, `Burst ${i}`);
      await until(
        () => indexedDoc(home._id),
        (doc) => doc?.name === `Burst ${i}`,
        5_000,
      );
    }
    // Each change was applied on its own; the merge waits for the quiet time after the last.
    expect(compactionNeed(await shardCopies(es, config.homesAlias))).toBe('fragmented');
    const merged = await until(
      async () => compactionNeed(await shardCopies(es, config.homesAlias)),
      (need) => need === 'tidy',
      30_000,
    );
    expect(merged.value).toBe('tidy');
  }, 45_000);

  it('runs nothing while nothing is recorded', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const before = await readIndexerHistory(mongo.collections.indexerState);
    schedule = start();
    await new Promise((r) => setTimeout(r, WATCH_MS * 6));
    const after = await readIndexerHistory(mongo.collections.indexerState);
    expect(after.last_run).toEqual(before.last_run);
    expect(after.last_incremental_run).toEqual(before.last_incremental_run);
  });
});
