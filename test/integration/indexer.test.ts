/**
 * The indexer against the real Elasticsearch and Mongo-wire servers: alias swaps, failure
 * handling, orphans, incremental runs and the lease.
 */
import { testConfig, seedWorld, dropWorld } from '../support/fixture';
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { fullRebuild, IndexingFailedError } from '../../indexer/full-rebuild';
import { incrementalRun } from '../../indexer/incremental';
import { pendingChanges, recordChanges, recordFullReplacement } from '../../services/kernel/store/inventory-changes';
import { aliasMappingCurrent, aliasTargets, createHomesIndex, MAPPING_VERSION, orphanIndexes, timestampedIndexName } from '../../indexer/es-admin';
import { runIndexerJob } from '../../indexer/runner';
import { compactLiveIndex, compactionNeed, shardCopies, type CompactionOutcome } from '../../indexer/compaction';
import { acquireLease, LeaseHeldError } from '../../indexer/lease';
import { readFreshness } from '../../services/kernel/store/index-freshness';
import { BSON } from 'mongodb';
import { homeBytesBySlice } from '../../indexer/source';
import { BASE_SLICES, idSlices, planSlices, readSliceCensus, type SliceCensus } from '../../indexer/id-slices';
import { homeRouting, readRoutingKeys, RoutingKeysCache } from '../../services/kernel/store/home-routing';

let config: Config;
let mongo: MongoHandle;
let es: EsClient;
// The previous index goes at once here; the test of its grace period sets its own.
const opts = () => ({ alias: config.homesAlias, indexPrefix: config.homesIndexPrefix, retireAfterMs: 0 });

beforeAll(async () => {
  config = testConfig();
  ({ mongo, es } = await seedWorld(config, 120));
});

afterAll(async () => {
  if (mongo && es) await dropWorld(config, mongo, es);
});

const count = async (): Promise<number> => (await es.count({ index: config.homesAlias })).count;

/** Every indexed copy of a home, wherever it is routed (an `ids` search reads every shard). */
async function copiesOf(id: string): Promise<Array<{ routing: string | undefined; name: string; market_slug: string }>> {
  const res = await es.search<{ name: string; market_slug: string }>({ index: config.homesAlias, query: { ids: { values: [id] } } });
  return res.hits.hits.map((h) => ({ routing: h._routing, name: h._source!.name, market_slug: h._source!.market_slug }));
}
/** The one indexed document of a home, or null; two copies fail the test. */
async function indexedDoc(id: string): Promise<{ name: string } | null> {
  const copies = await copiesOf(id);
  expect(copies.length).toBeLessThanOrEqual(1);
  return copies[0] ?? null;
}

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
    const usage = (await es.transport.request({ method: 'POST', path: `/${run.alias_target}/_disk_usage`, querystring: { run_expensive_tasks: true } })) as Record<
      string,
      { fields: Record<string, { total_in_bytes: number }> }
    >;
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
          for (const bytes of batch) { const h = BSON.deserialize(bytes) as { _id: string }; seen.set(h._id, (seen.get(h._id) ?? 0) + 1); }
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

describe('incremental run', () => {
  const changes = () => mongo.collections.inventoryChanges;

  it('re-indexes the homes writers recorded, and removes unpublished, soft-deleted and hard-deleted ones', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const [a, b, c, d] = await mongo.collections.homes.find({ published: true, deleted_at: null }).limit(4).toArray();
    const now = new Date();
    await mongo.collections.homes.updateOne({ _id: a._id }, { $set: { name: 'Renamed by test', updated_at: now } });
    await mongo.collections.homes.updateOne({ _id: b._id }, { $set: { published: false, updated_at: now } });
    await mongo.collections.homes.updateOne({ _id: c._id }, { $set: { deleted_at: now, updated_at: now } });
    await mongo.collections.homes.deleteOne({ _id: d._id });
    await recordChanges(changes(), 'test', { homes: [a._id, b._id, c._id, d._id] });
    const total = await count();
    const run = await incrementalRun(es, mongo.collections, opts());
    expect(run).toMatchObject({ documents: 1, deleted: 3, changes: 1 });
    expect((await indexedDoc(a._id))?.name).toBe('Renamed by test');
    for (const gone of [b, c, d]) expect(await indexedDoc(gone._id)).toBeNull();
    expect(await count()).toBe(total - 3);
    expect(await pendingChanges(changes())).toEqual([]);
    await mongo.collections.homes.insertOne(d);
  });

  it('merges the live index back to one segment per shard after a run that wrote, handing its caller the merge it started', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const homes = await mongo.collections.homes.find({ published: true, deleted_at: null }).limit(40).toArray();
    const now = new Date();
    await Promise.all(homes.map((h) => mongo.collections.homes.updateOne({ _id: h._id }, { $set: { name: `Compacted ${h._id}`, updated_at: now } })));
    await recordChanges(changes(), 'test', { homes: homes.map((h) => h._id) });
    // Its writes leave segments beside the rebuild's; the run starts their merge and does not wait for it.
    let merge: Promise<CompactionOutcome> | undefined;
    const run = await incrementalRun(es, mongo.collections, {
      ...opts(),
      onCompaction: (m) => {
        merge = m;
      },
    });
    expect(run.documents).toBe(40);
    expect(merge).toBeDefined();
    expect(await merge).toBe('fragmented');
    const copies = await shardCopies(es, config.homesAlias);
    expect(copies.length).toBeGreaterThan(1);
    expect(compactionNeed(copies)).toBe('tidy');
    expect(copies.every((c) => c.segments <= 1)).toBe(true);
    for (const h of homes.slice(0, 3)) expect((await indexedDoc(h._id))?.name).toBe(`Compacted ${h._id}`);
  });

  it('merges once at a time per alias, and settles without rejecting when the alias is gone', async () => {
    const first = compactLiveIndex(es, config.homesAlias);
    expect(compactLiveIndex(es, config.homesAlias)).toBe(first);
    await first;
    await expect(compactLiveIndex(es, `${config.homesAlias}-missing`)).resolves.toBe('retired');
  });

  it('does nothing, in one small read, when nothing is pending', async () => {
    await incrementalRun(es, mongo.collections, opts());
    const merges: unknown[] = [];
    const run = await incrementalRun(es, mongo.collections, { ...opts(), onCompaction: (m) => merges.push(m) });
    expect(run).toMatchObject({ documents: 0, deleted: 0, changes: 0 });
    // Nothing written, nothing to merge.
    expect(merges).toEqual([]);
  });

  it('ignores a change written but not recorded in the log (writers must record)', async () => {
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    await mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { name: 'Unrecorded' } });
    await incrementalRun(es, mongo.collections, opts());
    expect((await indexedDoc(home!._id))?.name).not.toBe('Unrecorded');
    await recordChanges(changes(), 'test', { homes: [home!._id] });
    await incrementalRun(es, mongo.collections, opts());
    expect((await indexedDoc(home!._id))?.name).toBe('Unrecorded');
  });

  it('keeps a change recorded while a run works for the next run, so none is lost', async () => {
    const [a, b] = await mongo.collections.homes.find({ published: true, deleted_at: null }).limit(2).toArray();
    await mongo.collections.homes.updateOne({ _id: a._id }, { $set: { name: 'First wave' } });
    await recordChanges(changes(), 'test', { homes: [a._id] });
    let wroteDuringRun = false;
    await incrementalRun(es, mongo.collections, {
      ...opts(),
      onProgress: () => {
        if (wroteDuringRun) return;
        wroteDuringRun = true;
        void mongo.collections.homes
          .updateOne({ _id: b._id }, { $set: { name: 'Written mid-run' } })
          .then(() => recordChanges(changes(), 'test', { homes: [b._id] }));
      },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await pendingChanges(changes())).toHaveLength(1);
    const run = await incrementalRun(es, mongo.collections, opts());
    expect(run.changes).toBe(1);
    expect((await indexedDoc(b._id))?.name).toBe('Written mid-run');
  });

  it("re-indexes every home of a changed building, found through the index", async () => {
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    const siblings = await es.count({ index: config.homesAlias, query: { term: { property_id: home!.property_id } } });
    await mongo.collections.properties.updateOne({ _id: home!.property_id }, { $set: { name: 'Renamed Building' } });
    await recordChanges(changes(), 'test', { properties: [home!.property_id] });
    const run = await incrementalRun(es, mongo.collections, opts());
    expect(run.documents).toBe(siblings.count);
    const renamed = await es.count({ index: config.homesAlias, query: { term: { 'property_name.raw': 'Renamed Building' } } });
    expect(renamed.count).toBe(siblings.count);
  });

  it('moves a home that changed market to its new market\'s shard, leaving no copy behind, and back', async () => {
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    // Another market on another shard: a copy left behind there would be a second hit.
    const keys = await readRoutingKeys(es, config.homesAlias);
    const shardOf = async (market: string) => (await es.searchShards({ index: config.homesAlias, routing: homeRouting(market, keys) })).shards[0][0].shard;
    const here = await shardOf(home!.market_slug);
    const markets = await mongo.collections.markets.find({ _id: { $ne: home!.market_slug }, 'cities.0': { $exists: true } }).toArray();
    let other: (typeof markets)[number] | undefined;
    for (const m of markets) if (!other && (await shardOf(m.slug)) !== here) other = m;
    expect(other).toBeDefined();
    const before = await count();
    const moveTo = async (market: string, city: string) => {
      await mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { market_slug: market, city_slug: city } });
      await recordChanges(changes(), 'test', { homes: [home!._id] });
      const run = await incrementalRun(es, mongo.collections, opts());
      expect(run).toMatchObject({ documents: 1, deleted: 0 });
      await es.indices.refresh({ index: config.homesAlias });
      expect(await copiesOf(home!._id)).toEqual([{ routing: homeRouting(market, keys), name: home!.name, market_slug: market }]);
      expect(await count()).toBe(before);
    };
    await moveTo(other!.slug, other!.cities[0].slug);
    await moveTo(home!.market_slug, home!.city_slug);
  });

  it('gives a market that appeared since the last rebuild its key before its first home is indexed, and the service finds that home there', async () => {
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    const market = await mongo.collections.markets.findOne({ _id: home!.market_slug });
    const slug = 'new-market-for-routing';
    const city = { ...market!.cities[0], slug: `${slug}-city` };
    await mongo.collections.markets.insertOne({ ...market!, _id: slug, slug, cities: [city] });
    const cache = new RoutingKeysCache(() => readRoutingKeys(es, config.homesAlias));
    expect(await cache.keyOf(slug)).toBe(slug);
    try {
      await mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { market_slug: slug, city_slug: city.slug } });
      await recordChanges(changes(), 'test', { homes: [home!._id] });
      await incrementalRun(es, mongo.collections, opts());
      await es.indices.refresh({ index: config.homesAlias });
      const keys = await readRoutingKeys(es, config.homesAlias);
      expect(keys[slug]).toBeDefined();
      expect(await copiesOf(home!._id)).toEqual([{ routing: keys[slug], name: home!.name, market_slug: slug }]);
      // The service's copy was read before the market had a key: it asks again and searches the right shard.
      const found = await es.search({ index: config.homesAlias, routing: await cache.keyOf(slug), query: { term: { market_slug: slug } } });
      expect(found.hits.hits.map((h) => h._id)).toEqual([home!._id]);
    } finally {
      await mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { market_slug: home!.market_slug, city_slug: home!.city_slug } });
      await recordChanges(changes(), 'test', { homes: [home!._id] });
      await incrementalRun(es, mongo.collections, opts());
      await mongo.collections.markets.deleteOne({ _id: slug });
    }
  });

  it('routes by slug an index built before routing keys, and its rebuild keys every market, each home under its market\'s key', async () => {
    // An index as an older indexer built it: no keys in its _meta, homes routed by their market's slug.
    const [live] = await aliasTargets(es, config.homesAlias);
    await es.indices.putMapping({ index: live, _meta: { mapping_version: MAPPING_VERSION } });
    expect(await readRoutingKeys(es, config.homesAlias)).toEqual({});
    expect(homeRouting('denver', {})).toBe('denver');
    await fullRebuild(es, mongo.collections, opts());
    const keys = await readRoutingKeys(es, config.homesAlias);
    const markets = (await mongo.collections.markets.find({}).toArray()).map((m) => m.slug).sort();
    expect(Object.keys(keys).sort()).toEqual(markets);
    const all = await es.search<{ market_slug: string }>({ index: config.homesAlias, size: 1000, _source: ['market_slug'], query: { match_all: {} } });
    for (const h of all.hits.hits) expect(h._routing).toBe(keys[h._source!.market_slug]);
  });

  it('turns into a full rebuild after the inventory was replaced (a seed)', async () => {
    const before = await aliasTargets(es, config.homesAlias);
    await recordFullReplacement(changes(), 'test');
    const run = await incrementalRun(es, mongo.collections, opts());
    expect(run.kind).toBe('full');
    expect(await aliasTargets(es, config.homesAlias)).not.toEqual(before);
    expect(await pendingChanges(changes())).toEqual([]);
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
