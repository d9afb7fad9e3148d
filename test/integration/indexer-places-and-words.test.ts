/**
 * The places index behind the place box, on the real Elasticsearch and Mongo-wire servers: after a
 * full rebuild and after each incremental run it holds exactly the markets, display cities,
 * neighbourhoods and buildings of the searchable homes (scanned from the homes alias), with the
 * names MongoDB gives them; a run that changes no place writes no new index; a copy upgraded in
 * place (no places alias yet) gets one from its next run, even one with nothing to apply. A version's
 * alias and the unversioned alias on the same homes index share one places index, read and written once
 * a run, and both read the run's places. The
 * vocabulary holds every word of the index after a full rebuild, and gains a run's new words.
 */
import { placesAliasOf, type Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { fullRebuild } from '../../indexer/full-rebuild';
import { incrementalRun } from '../../indexer/incremental';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { aliasTargets, deleteIndexes, ownAlias, timestampedIndexName } from '../../indexer/es-admin';
import placesMapping from '../../mappings/places.json';
import { placeId, type PlaceDocument } from '../../services/kernel/text/place-suggestions';
import { readVocabulary } from '../../services/kernel/store/vocabulary-store';
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

const { opts } = indexReads(() => ({ config, es }));

/** Every place document the places alias holds, by id. */
async function indexedPlaces(alias = config.placesAlias): Promise<Map<string, PlaceDocument>> {
  const res = await es.search<PlaceDocument>({ index: alias, size: 10_000, query: { match_all: {} } });
  return new Map(res.hits.hits.map((h) => [h._id!, h._source!]));
}

/** The places the searchable homes of the homes alias have, scanned document by document. */
async function scannedPlaceIds(): Promise<string[]> {
  const res = await es.search<Record<string, string | null>>({
    index: config.homesAlias,
    size: 10_000,
    query: { term: { bookable: true } },
    _source: ['market_slug', 'city_slug', 'neighborhood_slug', 'property_slug'],
  });
  const ids = new Set<string>();
  for (const h of res.hits.hits) {
    const d = h._source!;
    const market = String(d.market_slug);
    ids.add(placeId({ type: 'market', market, slug: market }));
    ids.add(placeId({ type: 'city', market, slug: String(d.city_slug) }));
    if (d.neighborhood_slug) ids.add(placeId({ type: 'neighborhood', market, slug: d.neighborhood_slug }));
    ids.add(placeId({ type: 'building', market, slug: String(d.property_slug) }));
  }
  return [...ids].sort();
}

describe('the places index', () => {
  it('holds, after a full rebuild, exactly the places of the searchable homes, each with the search arguments of the place', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const places = await indexedPlaces();
    expect([...places.keys()].sort()).toEqual(await scannedPlaceIds());
    const markets = await mongo.collections.markets.find().toArray();
    for (const p of places.values()) {
      const market = markets.find((m) => m.slug === p.market)!;
      if (p.type === 'market') expect(p).toMatchObject({ label: market.name, search: { market: market.slug } });
      if (p.type === 'city') expect(p.search).toEqual({ scope: { display_city: p.slug } });
      if (p.type === 'neighborhood') expect(p.search).toEqual({ market: market.slug, neighborhood: p.slug });
      if (p.type === 'building') {
        const building = await mongo.collections.properties.findOne({ slug: p.slug });
        expect(p).toMatchObject({ label: building!.name, search: { market: building!.market_slug, building: p.slug } });
      }
    }
  });

  it('follows an incremental run: a building renamed is completed by its new name, one with no searchable home leaves, and nothing else moves', async () => {
    await fullRebuild(es, mongo.collections, opts());
    const [renamed, emptied] = await mongo.collections.properties.find().sort({ _id: 1 }).limit(2).toArray();
    const before = await aliasTargets(es, config.placesAlias);
    const now = new Date();
    await mongo.collections.properties.updateOne({ _id: renamed._id }, { $set: { name: 'Quillfeather Lofts', updated_at: now } });
    const homesOfEmptied = await mongo.collections.homes.find({ property_id: emptied._id }).toArray();
    await mongo.collections.homes.updateMany({ property_id: emptied._id }, { $set: { published: false, updated_at: now } });
    await recordChanges(mongo.collections.inventoryChanges, 'test', { properties: [renamed._id], homes: homesOfEmptied.map((h) => h._id) });
    await incrementalRun(es, mongo.collections, opts());

    const places = await indexedPlaces();
    expect([...places.keys()].sort()).toEqual(await scannedPlaceIds());
    expect(places.get(placeId({ type: 'building', market: renamed.market_slug, slug: renamed.slug }))?.label).toBe('Quillfeather Lofts');
    expect(places.has(placeId({ type: 'building', market: emptied.market_slug, slug: emptied.slug }))).toBe(false);
    expect(await aliasTargets(es, config.placesAlias)).not.toEqual(before);

    // A change that moves no place (a home's price) leaves the places index as it is.
    const settled = await aliasTargets(es, config.placesAlias);
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null, property_id: renamed._id });
    await mongo.collections.homes.updateOne({ _id: home!._id }, { $inc: { monthly_rate_cents: 100 }, $set: { updated_at: new Date() } });
    await recordChanges(mongo.collections.inventoryChanges, 'test', { homes: [home!._id] });
    await incrementalRun(es, mongo.collections, opts());
    expect(await aliasTargets(es, config.placesAlias)).toEqual(settled);
  });

  it("is read and written once per run for a version's alias and the unversioned one on the same index, and both read it", async () => {
    const versionedPlaces = placesAliasOf(ownAlias(config.homesAlias));
    const reads = jest.spyOn(es, 'search');
    const creates = jest.spyOn(es.indices, 'create');
    /** Places syncs since the last call: composite reads of the homes' places, and places indexes created. */
    const syncs = (): { reads: number; created: number } => {
      const counted = {
        reads: reads.mock.calls.filter(([req]) => (req as { aggregations?: { places?: unknown } } | undefined)?.aggregations?.places !== undefined).length,
        created: creates.mock.calls.filter(([req]) => String((req as { index?: unknown }).index).includes('-places-')).length,
      };
      reads.mockClear();
      creates.mockClear();
      return counted;
    };
    /** Both places aliases on one index, holding the places of the searchable homes (`label` of a building, when given). */
    const bothRead = async (building?: { market: string; slug: string; label: string }): Promise<void> => {
      const [shared] = await aliasTargets(es, versionedPlaces);
      expect(await aliasTargets(es, config.placesAlias)).toEqual([shared]);
      for (const alias of [config.placesAlias, versionedPlaces]) {
        const places = await indexedPlaces(alias);
        expect([...places.keys()].sort()).toEqual(await scannedPlaceIds());
        if (building) expect(places.get(placeId({ type: 'building', market: building.market, slug: building.slug }))?.label).toBe(building.label);
      }
    };
    try {
      // The places of the earlier tests' last run: read once, and at most one index made.
      await fullRebuild(es, mongo.collections, opts());
      expect(syncs()).toEqual({ reads: 1, created: expect.any(Number) as number });
      expect(await aliasTargets(es, versionedPlaces)).toHaveLength(1);
      await bothRead();

      // A place changed: one new places index, read under both aliases.
      const building = await mongo.collections.properties.findOne({}, { sort: { _id: -1 } });
      await mongo.collections.properties.updateOne({ _id: building!._id }, { $set: { name: 'Marrowgate House', updated_at: new Date() } });
      await recordChanges(mongo.collections.inventoryChanges, 'test', { properties: [building!._id] });
      await incrementalRun(es, mongo.collections, opts());
      expect(syncs()).toEqual({ reads: 1, created: 1 });
      await bothRead({ market: building!.market_slug, slug: building!.slug, label: 'Marrowgate House' });

      // No place changed: read once, nothing written.
      const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
      await mongo.collections.homes.updateOne({ _id: home!._id }, { $inc: { monthly_rate_cents: 100 }, $set: { updated_at: new Date() } });
      await recordChanges(mongo.collections.inventoryChanges, 'test', { homes: [home!._id] });
      await incrementalRun(es, mongo.collections, opts());
      expect(syncs()).toEqual({ reads: 1, created: 0 });
      await bothRead({ market: building!.market_slug, slug: building!.slug, label: 'Marrowgate House' });

      // An unversioned places alias on an index of its own (made before they shared one) joins the version's
      // at the next run, even one with nothing to apply, without a places index made again.
      const [shared] = await aliasTargets(es, versionedPlaces);
      const own = timestampedIndexName(config.placesAlias, new Date());
      const made = await es.indices.getMapping({ index: shared! });
      await es.indices.create({ index: own, settings: placesMapping.settings, mappings: made[shared!]!.mappings });
      const copied = await es.search({ index: shared!, size: 10_000, query: { match_all: {} } });
      await es.bulk({ refresh: true, operations: copied.hits.hits.flatMap((h) => [{ index: { _index: own, _id: h._id } }, h._source]) });
      await es.indices.updateAliases({
        actions: [{ remove: { index: shared!, alias: config.placesAlias } }, { add: { index: own, alias: config.placesAlias } }],
      });
      syncs();
      await incrementalRun(es, mongo.collections, opts());
      expect(syncs()).toEqual({ reads: 1, created: 0 });
      await bothRead({ market: building!.market_slug, slug: building!.slug, label: 'Marrowgate House' });
    } finally {
      reads.mockRestore();
      creates.mockRestore();
    }
  });

  it('is made by the next run of a copy that has homes but no places alias, even a run with nothing to apply', async () => {
    await fullRebuild(es, mongo.collections, opts());
    await deleteIndexes(es, await aliasTargets(es, config.placesAlias));
    expect(await aliasTargets(es, config.placesAlias)).toEqual([]);
    const run = await incrementalRun(es, mongo.collections, opts());
    expect(run.changes).toBe(0);
    expect([...(await indexedPlaces()).keys()].sort()).toEqual(await scannedPlaceIds());
  });
});

/** Every word the `any` field of the alias's documents holds. */
async function indexedWords(): Promise<string[]> {
  const res = await es.search<{ text: { any: { words: string[] } } }>({ index: config.homesAlias, size: 10_000, _source: ['text.any.words'] });
  return [...new Set(res.hits.hits.flatMap((h) => h._source!.text.any.words.flatMap((t) => t.split(' '))))].sort();
}

describe('the vocabulary', () => {
  it('holds exactly the words of the index after a full rebuild, and a word a run writes before the run ends', async () => {
    await fullRebuild(es, mongo.collections, opts());
    expect(await readVocabulary(mongo.collections.indexerState, config.homesAlias)).toEqual(await indexedWords());

    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    await mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { name: 'Zephyrine loft', updated_at: new Date() } });
    await recordChanges(mongo.collections.inventoryChanges, 'test', { homes: [home!._id] });
    await incrementalRun(es, mongo.collections, opts());
    const words = await readVocabulary(mongo.collections.indexerState, config.homesAlias);
    expect(words).toContain('zephyrine');
    for (const w of await indexedWords()) expect(words).toContain(w);
  });
});
