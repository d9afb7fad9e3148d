/**
 * The indexer's incremental run against the real Elasticsearch and Mongo-wire servers: the recorded
 * changes, deletions, the merge after a write, buildings, markets and their routing keys, and the turn
 * into a full rebuild (setup: test/integration/shared/indexer-world.ts).
 */
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { fullRebuild } from '../../indexer/full-rebuild';
import { incrementalRun } from '../../indexer/incremental';
import { pendingChanges, recordChanges, recordFullReplacement } from '../../services/kernel/store/inventory-changes';
import { aliasTargets, MAPPING_VERSION } from '../../indexer/es-admin';
import { compactLiveIndex, compactionNeed, shardCopies, type CompactionOutcome } from '../../indexer/compaction';
import { homeRouting, readRoutingKeys, RoutingKeysCache } from '../../services/kernel/store/home-routing';
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

const { opts, count, copiesOf, indexedDoc } = indexReads(() => ({ config, es }));

describe('incremental run', () => {
  const changes = () => mongo.collections.inventoryChanges;

  it('reports a home whose building is missing, keeps its indexed document, and writes the rest', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const [orphan, other] = await mongo.collections.homes.find({ published: true, deleted_at: null }).limit(2).toArray();
    const now = new Date();
    await mongo.collections.homes.updateOne({ _id: orphan._id }, { $set: { property_id: 'prop-gone', name: 'Lost its building', updated_at: now } });
    await mongo.collections.homes.updateOne({ _id: other._id }, { $set: { name: 'Renamed beside it', updated_at: now } });
    try {
      await recordChanges(changes(), 'test', { homes: [orphan._id, other._id] });
      const run = await incrementalRun(es, mongo.collections, opts());
      expect(run.skipped).toBe(1);
      expect(run.skipped_examples[0]).toContain('prop-gone');
      expect(run.documents).toBe(1);
      expect((await indexedDoc(orphan._id))?.name).toBe(orphan.name);
      expect((await indexedDoc(other._id))?.name).toBe('Renamed beside it');
    } finally {
      await mongo.collections.homes.updateOne({ _id: orphan._id }, { $set: { property_id: orphan.property_id, name: orphan.name } });
      await mongo.collections.homes.updateOne({ _id: other._id }, { $set: { name: other.name } });
      await recordChanges(changes(), 'test', { homes: [orphan._id, other._id] });
      await incrementalRun(es, mongo.collections, opts());
    }
  });

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

  it('re-indexes every home of a changed building, found through the index', async () => {
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    const siblings = await es.count({ index: config.homesAlias, query: { term: { property_id: home!.property_id } } });
    await mongo.collections.properties.updateOne({ _id: home!.property_id }, { $set: { name: 'Renamed Building' } });
    await recordChanges(changes(), 'test', { properties: [home!.property_id] });
    const run = await incrementalRun(es, mongo.collections, opts());
    expect(run.documents).toBe(siblings.count);
    const units = await es.search<{ property_name: string }>({
      index: config.homesAlias,
      size: 1000,
      _source: ['property_name'],
      query: { term: { property_id: home!.property_id } },
    });
    expect(units.hits.hits.map((h) => h._source!.property_name)).toEqual(Array(siblings.count).fill('Renamed Building'));
  });

  it("moves a home that changed market to its new market's shard, leaving no copy behind, and back", async () => {
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

  it("routes by slug an index built before routing keys, and its rebuild keys every market, each home under its market's key", async () => {
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
