/**
 * The indexer's full rebuild against the real Elasticsearch and Mongo-wire servers: alias swaps, failure
 * handling, orphans, reading homes by _id slices, and an index built from another version of the mapping
 * (setup: test/integration/shared/indexer-world.ts).
 */
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { fullRebuild, IndexingFailedError } from '../../indexer/full-rebuild';
import { aliasMappingCurrent, aliasTargets, createHomesIndex, orphanIndexes, timestampedIndexName } from '../../indexer/es-admin';
import { runIndexerJob } from '../../indexer/runner';
import { readFreshness } from '../../services/kernel/store/index-freshness';
import { BSON } from 'mongodb';
import { homeBytesBySlice } from '../../indexer/source';
import { BASE_SLICES, idSlices, planSlices, readSliceCensus, type SliceCensus } from '../../indexer/id-slices';
import { closeIndexerWorld, openIndexerWorld, indexReads } from './shared/indexer-world';

let config: Config;
let mongo: MongoHandle;
let es: EsClient;

beforeAll(async () => {
  ({ config, mongo, es } = await openIndexerWorld());
});

afterAll(async () => {
  await closeIndexerWorld({ config, mongo, es });
});

const { opts, count, indexedDoc } = indexReads(() => ({ config, es }));

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

  it('keeps the previous index a while after the swap (searches that read the alias before it still run there), then deletes it', async () => {
    const [before] = await aliasTargets(es, config.homesAlias);
    const run = fullRebuild(es, mongo.collections, { ...opts(), retireAfterMs: 1_500 });
    let swappedAt = 0;
    let oldIndexAtSwap: boolean | null = null;
    while (swappedAt === 0) {
      const [now] = await aliasTargets(es, config.homesAlias);
      if (now !== before) {
        swappedAt = Date.now();
        oldIndexAtSwap = await es.indices.exists({ index: before });
      } else await new Promise((r) => setTimeout(r, 20));
    }
    await run;
    expect(oldIndexAtSwap).toBe(true);
    expect(Date.now() - swappedAt).toBeGreaterThanOrEqual(1_200);
    expect(await es.indices.exists({ index: before })).toBe(false);
  });

  it('reports its phases in order, the alias still on the previous index when the documents are loaded', async () => {
    const [before] = await aliasTargets(es, config.homesAlias);
    const phases: string[] = [];
    const serving: { whenLoaded?: Promise<string[]> } = {};
    await fullRebuild(es, mongo.collections, {
      ...opts(),
      onPhase: (phase) => {
        phases.push(phase);
        // Asked at once; the refresh and the merge that follow take longer than this read.
        if (phase === 'loaded') serving.whenLoaded = aliasTargets(es, config.homesAlias);
      },
    });
    expect(phases).toEqual(['loaded', 'ready', 'swapped']);
    expect(await serving.whenLoaded).toEqual([before]);
    expect(await aliasTargets(es, config.homesAlias)).not.toEqual([before]);
  });

  it('stores each document once: no second, full copy (_recovery_source) beside _source', async () => {
    const run = await fullRebuild(es, mongo.collections, opts());
    const usage = (await es.transport.request({
      method: 'POST',
      path: `/${run.alias_target}/_disk_usage`,
      querystring: { run_expensive_tasks: true },
    })) as Record<string, { fields: Record<string, { total_in_bytes: number }> }>;
    const fields = usage[run.alias_target!].fields;
    expect(fields._source.total_in_bytes).toBeGreaterThan(0);
    expect(fields._recovery_source?.total_in_bytes ?? 0).toBe(0);
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
      expect(await indexedDoc(orphanHome!._id)).toBeNull();
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

describe('reading homes by _id slices', () => {
  it('records what a full rebuild read, and the next one groups its slices by it', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const census = await readSliceCensus(mongo.collections.indexerState);
    expect(census).not.toBeNull();
    expect(census!.reduce((n, g) => n + g.count, 0)).toBe(await mongo.collections.homes.countDocuments({}));
    expect(census!.flatMap((g) => g.bases)).toEqual(Array.from({ length: BASE_SLICES }, (_, b) => b));
    // The next rebuild reads fewer slices (the empty base slices join their neighbours) and indexes the same homes.
    const before = (await es.count({ index: config.homesAlias })).count;
    await fullRebuild(es, mongo.collections, opts());
    const next = (await readSliceCensus(mongo.collections.indexerState))!;
    expect(next.length).toBeLessThan(BASE_SLICES);
    expect(next.reduce((n, g) => n + g.count, 0)).toBe(await mongo.collections.homes.countDocuments({}));
    expect((await es.count({ index: config.homesAlias })).count).toBe(before);
  });

  it('returns every home exactly once, whatever its id looks like', async () => {
    const template = await mongo.collections.homes.findOne({});
    const odd = ['x', 'Z9', 'home-ÄÖ', 'a-b_c.d', '0f8fad5b-d9cb-469f-a165-70867728950e', 'UPPER', '42', 'ends-with-space '];
    await mongo.collections.homes.insertMany(odd.map((id) => ({ ...template!, _id: id, slug: `odd-${Buffer.from(id).toString('hex')}` })));
    try {
      const census: SliceCensus = [];
      // Every base slice alone (no census yet), then slices grouped by that census: each reads every home once.
      for (const slices of [idSlices(), null]) {
        const plan = slices ?? planSlices(census, 2);
        if (!slices) expect(plan.length).toBeLessThan(idSlices().length);
        const seen = new Map<string, number>();
        for await (const batch of homeBytesBySlice(mongo.collections, plan, (slice, count) => slices && census.push({ bases: slice.bases, count }))) {
          for (const bytes of batch) {
            const h = BSON.deserialize(bytes) as { _id: string };
            seen.set(h._id, (seen.get(h._id) ?? 0) + 1);
          }
        }
        expect(seen.size).toBe(await mongo.collections.homes.countDocuments({}));
        expect([...seen.values()].every((n) => n === 1)).toBe(true);
        for (const id of odd) expect(seen.get(id)).toBe(1);
      }
    } finally {
      await mongo.collections.homes.deleteMany({ _id: { $in: odd } });
    }
  });
});

describe('an index built from another version of the mapping', () => {
  it('is rebuilt by the next scheduled run instead of updated, and then carries this version', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const [old] = await aliasTargets(es, config.homesAlias);
    expect(await aliasMappingCurrent(es, config.homesAlias)).toBe(true);
    // As an index built by the code before an upgrade looks to it.
    await es.indices.putMapping({ index: old, _meta: { mapping_version: 'an-older-version' } });
    expect(await aliasMappingCurrent(es, config.homesAlias)).toBe(false);
    const run = await runIndexerJob('incremental', es, mongo.collections, config);
    expect(run.kind).toBe('full');
    const [rebuilt] = await aliasTargets(es, config.homesAlias);
    expect(rebuilt).not.toBe(old);
    expect(await aliasMappingCurrent(es, config.homesAlias)).toBe(true);
    // Current again: the next run is incremental.
    expect((await runIndexerJob('incremental', es, mongo.collections, config)).kind).toBe('incremental');
  });
});
