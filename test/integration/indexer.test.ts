/**
 * The indexer against the real Elasticsearch and Mongo-wire servers: alias swaps, failure
 * handling, orphans, incremental runs and the lease.
 */
import { testConfig, seedWorld, dropWorld } from '../support/fixture';
import type { Config } from '../../services/config';
import type { MongoHandle } from '../../services/store/mongo';
import type { EsClient } from '../../services/search/es';
import { fullRebuild, IndexingFailedError } from '../../indexer/full-rebuild';
import { CHECKPOINT_OVERLAP_MS, incrementalRun } from '../../indexer/incremental';
import { aliasTargets, createHomesIndex, orphanIndexes, timestampedIndexName } from '../../indexer/es-admin';
import { acquireLease, LeaseHeldError } from '../../indexer/lease';
import { readFreshness } from '../../indexer/freshness';

let config: Config;
let mongo: MongoHandle;
let es: EsClient;
const opts = () => ({ alias: config.homesAlias, indexPrefix: config.homesIndexPrefix });

beforeAll(async () => {
  config = testConfig();
  ({ mongo, es } = await seedWorld(config, 120));
});

afterAll(async () => {
  if (mongo && es) await dropWorld(config, mongo, es);
});

const count = async (): Promise<number> => (await es.count({ index: config.homesAlias })).count;

describe('full rebuild', () => {
  it('loads every published, undeleted home, moves the alias and deletes the old index', async () => {
    const before = await aliasTargets(es, config.homesAlias);
    const run = await fullRebuild(es, mongo.collections, opts());
    const after = await aliasTargets(es, config.homesAlias);
    expect(after).toEqual([run.alias_target]);
    expect(after).not.toEqual(before);
    expect(await es.indices.exists({ index: before[0] })).toBe(false);
    const expected = await mongo.collections.homes.countDocuments({ published: true, deleted_at: null });
    expect(run.documents).toBe(expected);
    expect(await count()).toBe(expected);
  });

  it('records freshness: last run, duration, document count and alias target', async () => {
    const run = await fullRebuild(es, mongo.collections, opts());
    const f = await readFreshness(mongo.collections.indexerState);
    expect(f.last_full_run).toMatchObject({ kind: 'full', documents: run.documents, alias_target: run.alias_target });
    expect(f.last_full_run!.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('fails when a document is dropped, deletes its half-built index and keeps the old alias serving', async () => {
    const before = await aliasTargets(es, config.homesAlias);
    const docsBefore = await count();
    // A home whose document ES rejects: a bedroom count that is not an integer is refused by the mapping.
    const bad = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    await mongo.collections.homes.updateOne({ _id: bad!._id }, { $set: { bedrooms: 'many' as unknown as number } });
    try {
      await expect(fullRebuild(es, mongo.collections, opts())).rejects.toBeInstanceOf(IndexingFailedError);
    } finally {
      await mongo.collections.homes.updateOne({ _id: bad!._id }, { $set: { bedrooms: bad!.bedrooms } });
    }
    expect(await aliasTargets(es, config.homesAlias)).toEqual(before);
    expect(await count()).toBe(docsBefore);
    expect(await orphanIndexes(es, config.homesIndexPrefix, config.homesAlias)).toEqual([]);
  });

  it('skips and reports a home whose building is missing, and indexes the rest', async () => {
    const orphanHome = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    await mongo.collections.homes.updateOne({ _id: orphanHome!._id }, { $set: { property_id: 'prop-gone' } });
    try {
      const run = await fullRebuild(es, mongo.collections, opts());
      expect(run.skipped).toBe(1);
      expect(run.skipped_examples[0]).toContain('prop-gone');
      expect(await es.exists({ index: config.homesAlias, id: orphanHome!._id })).toBe(false);
      expect(run.documents).toBe((await mongo.collections.homes.countDocuments({ published: true, deleted_at: null })) - 1);
    } finally {
      await mongo.collections.homes.updateOne({ _id: orphanHome!._id }, { $set: { property_id: orphanHome!.property_id } });
    }
  });

  it('moves the alias off every index it pointed at, and deletes them', async () => {
    const stray = timestampedIndexName(config.homesIndexPrefix, new Date(Date.UTC(2021, 0, 1)));
    await createHomesIndex(es, stray);
    await es.indices.updateAliases({ actions: [{ add: { index: stray, alias: config.homesAlias } }] });
    const run = await fullRebuild(es, mongo.collections, opts());
    expect(await aliasTargets(es, config.homesAlias)).toEqual([run.alias_target]);
    expect(await es.indices.exists({ index: stray })).toBe(false);
  });

  it('deletes an orphan left by a killed run before building', async () => {
    const orphan = timestampedIndexName(config.homesIndexPrefix, new Date(Date.UTC(2020, 0, 1)));
    await createHomesIndex(es, orphan);
    expect(await orphanIndexes(es, config.homesIndexPrefix, config.homesAlias)).toEqual([orphan]);
    await fullRebuild(es, mongo.collections, opts());
    expect(await es.indices.exists({ index: orphan })).toBe(false);
    expect(await orphanIndexes(es, config.homesIndexPrefix, config.homesAlias)).toEqual([]);
  });
});

describe('incremental run', () => {
  it('re-indexes changed homes and removes unpublished and soft-deleted ones', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const [a, b, c] = await mongo.collections.homes.find({ published: true, deleted_at: null }).limit(3).toArray();
    const now = new Date();
    await mongo.collections.homes.updateOne({ _id: a._id }, { $set: { name: 'Renamed by test', updated_at: now } });
    await mongo.collections.homes.updateOne({ _id: b._id }, { $set: { published: false, updated_at: now } });
    await mongo.collections.homes.updateOne({ _id: c._id }, { $set: { deleted_at: now, updated_at: now } });
    const total = await count();
    const run = await incrementalRun(es, mongo.collections, opts());
    expect(run.documents).toBeGreaterThanOrEqual(1);
    expect(run.deleted).toBe(2);
    const doc = await es.get<{ name: string }>({ index: config.homesAlias, id: a._id });
    expect(doc._source?.name).toBe('Renamed by test');
    expect(await es.exists({ index: config.homesAlias, id: b._id })).toBe(false);
    expect(await es.exists({ index: config.homesAlias, id: c._id })).toBe(false);
    expect(await count()).toBe(total - 2);
  });

  it('picks up nothing when nothing changed since the checkpoint (past the clock-skew overlap)', async () => {
    const later = (ms: number) => () => new Date(Date.now() + ms);
    await incrementalRun(es, mongo.collections, { ...opts(), now: later(CHECKPOINT_OVERLAP_MS + 5_000) });
    const run = await incrementalRun(es, mongo.collections, { ...opts(), now: later(2 * CHECKPOINT_OVERLAP_MS + 10_000) });
    expect(run.documents + run.deleted).toBe(0);
  });

  it('re-reads changes written just before the checkpoint, so a lagging writer clock loses nothing', async () => {
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    const run1 = await incrementalRun(es, mongo.collections, opts());
    // A writer whose clock is 10 s behind stamps its change before the checkpoint the run just recorded.
    await mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { name: 'Late writer', updated_at: new Date(run1.started_at.getTime() - 10_000) } });
    await incrementalRun(es, mongo.collections, opts());
    const doc = await es.get<{ name: string }>({ index: config.homesAlias, id: home!._id });
    expect(doc._source?.name).toBe('Late writer');
  });
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
