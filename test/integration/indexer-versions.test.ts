/**
 * The indexes of several mapping versions side by side (indexer/index-versions.ts): an older version's
 * index kept while a copy reads it and retired once none does, this version's never; a copy's record
 * that is not renewed stops counting; a prepared version leaves the running copies' aliases where
 * they are, and its pending changes wait for the run that applies them to every kept index
 * (setup: test/integration/shared/indexer-world.ts).
 */
import { placesAliasOf, type Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { aliasTargets, createHomesIndex, ownAlias, timestampedIndexName } from '../../indexer/es-admin';
import { adoptUnversioned, ensureVersionWanted, retireUnread, versionIndexes, VersionUnreadError } from '../../indexer/index-versions';
import { fullRebuild } from '../../indexer/full-rebuild';
import { incrementalRun } from '../../indexer/incremental';
import { liveReaders, startReaderHeartbeat } from '../../services/kernel/store/index-readers';
import { versionedAlias } from '../../services/kernel/store/mapping-version';
import { pendingChanges, recordChanges } from '../../services/kernel/store/inventory-changes';
import { forgetVocabulary, readVocabulary, writeVocabulary } from '../../services/kernel/store/vocabulary-store';
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

/** An index of an older version (built before this one's: an earlier timestamp) behind its own versioned alias. */
async function olderVersion(version: string, year: number): Promise<{ alias: string; index: string }> {
  const index = timestampedIndexName(config.homesIndexPrefix, new Date(Date.UTC(year, 0, 1)));
  const alias = versionedAlias(config.homesAlias, version);
  await createHomesIndex(es, index);
  await es.indices.updateAliases({ actions: [{ add: { index, alias } }] });
  return { alias, index };
}

const retire = () => retireUnread(es, mongo.collections.indexerState, config.homesAlias, { own: ownAlias(config.homesAlias), retireAfterMs: 0 });

describe('indexes of several mapping versions', () => {
  it('keeps an older version while a copy reads it and retires it, alias and index, once the copy stops', async () => {
    const old = await olderVersion('00000000000000a1', 2021);
    const copy = await startReaderHeartbeat(mongo.collections.indexerState, { alias: old.alias, mappingVersion: '00000000000000a1', host: 'test' });
    expect(await retire()).toEqual([]);
    expect(await aliasTargets(es, old.alias)).toEqual([old.index]);

    await writeVocabulary(mongo.collections.indexerState, old.alias, ['loft']);
    await copy.stop();
    expect(await retire()).toEqual([old.alias]);
    expect(await aliasTargets(es, old.alias)).toEqual([]);
    expect(await readVocabulary(mongo.collections.indexerState, old.alias)).toBeNull();
    expect(await es.indices.exists({ index: old.index })).toBe(false);
    expect((await versionIndexes(es, config.homesAlias)).map((v) => v.alias)).toEqual([ownAlias(config.homesAlias)]);
  });

  it('does not count a copy whose record was not renewed within its time to live', async () => {
    const old = await olderVersion('00000000000000a2', 2021);
    const copy = await startReaderHeartbeat(
      mongo.collections.indexerState,
      { alias: old.alias, mappingVersion: '00000000000000a2', host: 'test' },
      { ttlMs: 50, renewMs: 60_000 },
    );
    await new Promise((r) => setTimeout(r, 100));
    expect((await liveReaders(mongo.collections.indexerState)).map((r) => r.alias)).not.toContain(old.alias);
    expect(await retire()).toEqual([old.alias]);
    await copy.stop();
  });

  it('never retires the newest index nor this version, read or not', async () => {
    const own = ownAlias(config.homesAlias);
    // A version built after this one's index, read by no copy yet: prepared ahead of its deploy.
    const next = await olderVersion('00000000000000b1', 2099);
    expect(await retire()).toEqual([]);
    expect((await versionIndexes(es, config.homesAlias)).map((v) => v.alias)).toEqual([own, next.alias]);
    await es.indices.delete({ index: next.index });
  });

  it('moves the unversioned alias off an index it retires, to the newest, its places alias with it', async () => {
    const old = await olderVersion('00000000000000a3', 2021);
    const [current] = await aliasTargets(es, ownAlias(config.homesAlias));
    const ownPlaces = await aliasTargets(es, placesAliasOf(ownAlias(config.homesAlias)));
    expect(ownPlaces).toHaveLength(1);
    // The unversioned places alias shares the old version's places index, as it does the version its homes alias points at.
    const oldPlaces = timestampedIndexName(placesAliasOf(old.alias), new Date(Date.UTC(2021, 0, 1)));
    await es.indices.create({ index: oldPlaces });
    const unversionedPlaces = await aliasTargets(es, config.placesAlias);
    await es.indices.updateAliases({
      actions: [
        { remove: { index: current!, alias: config.homesAlias } },
        { add: { index: old.index, alias: config.homesAlias } },
        ...unversionedPlaces.map((index) => ({ remove: { index, alias: config.placesAlias } })),
        { add: { index: oldPlaces, alias: config.placesAlias } },
        { add: { index: oldPlaces, alias: placesAliasOf(old.alias) } },
      ],
    });
    expect(await retire()).toEqual([old.alias]);
    expect(await aliasTargets(es, config.homesAlias)).toEqual([current]);
    expect(await aliasTargets(es, config.placesAlias)).toEqual(ownPlaces);
    expect(await es.indices.exists({ index: oldPlaces })).toBe(false);
  });

  it("gives an index made before versioned aliases its version's alias, and its words", async () => {
    const own = ownAlias(config.homesAlias);
    const [current] = await aliasTargets(es, own);
    await es.indices.updateAliases({ actions: [{ remove: { index: current!, alias: own } }] });
    await forgetVocabulary(mongo.collections.indexerState, own);
    await adoptUnversioned(es, mongo.collections.indexerState, config.homesAlias);
    expect(await aliasTargets(es, own)).toEqual([current]);
    const words = await readVocabulary(mongo.collections.indexerState, config.homesAlias);
    expect(words?.length).toBeGreaterThan(0);
    expect(await readVocabulary(mongo.collections.indexerState, own)).toEqual(words);
  });

  it('prepares a version under its own alias alone, and leaves the changes pending for every kept index', async () => {
    const own = ownAlias(config.homesAlias);
    const old = await olderVersion('00000000000000a4', 2021);
    // The running copies read the old version, also under the unversioned alias.
    const [current] = await aliasTargets(es, own);
    await es.indices.updateAliases({
      actions: [
        { remove: { index: current!, alias: own } },
        { remove: { index: current!, alias: config.homesAlias } },
        { add: { index: old.index, alias: config.homesAlias } },
      ],
    });
    await es.indices.delete({ index: current! });
    const home = await mongo.collections.homes.findOne({});
    await recordChanges(mongo.collections.inventoryChanges, 'test', { homes: [home!._id] });

    const run = await fullRebuild(es, mongo.collections, { ...opts(), prepare: true });
    expect(await aliasTargets(es, own)).toEqual([run.alias_target]);
    expect(await aliasTargets(es, old.alias)).toEqual([old.index]);
    expect(await aliasTargets(es, config.homesAlias)).toEqual([old.index]);
    expect(await pendingChanges(mongo.collections.inventoryChanges)).toHaveLength(1);
    await es.indices.delete({ index: old.index });
    await mongo.collections.inventoryChanges.deleteMany({});
    await fullRebuild(es, mongo.collections, opts());
  });

  it('fails a run on an older version’s index only once its watch matching has ended', async () => {
    const old = await olderVersion('00000000000000c3', 2021);
    await es.indices.putSettings({ index: old.index, settings: { 'index.blocks.write': true } });
    const home = await mongo.collections.homes.findOne({ published: true, deleted_at: null });
    await recordChanges(mongo.collections.inventoryChanges, 'test', { homes: [home!._id] });
    let ended = false;
    const run = incrementalRun(es, mongo.collections, {
      ...opts(),
      onWriting: async (_ids, _facts, indexed) => {
        // This version's writes are searchable; the matching goes on while the older index's writes fail.
        await indexed;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        ended = true;
      },
    });
    await expect(run).rejects.toThrow();
    // Nothing of the run outlives it, nor the lease it holds; its changes wait for the next run.
    expect(ended).toBe(true);
    expect(await pendingChanges(mongo.collections.inventoryChanges)).toHaveLength(1);
    await es.indices.delete({ index: old.index });
    await mongo.collections.inventoryChanges.deleteMany({});
  });

  it('refuses to build this version again once a newer one serves and no copy reads this one', async () => {
    const own = ownAlias(config.homesAlias);
    const next = await olderVersion('00000000000000b2', 2099);
    const [current] = await aliasTargets(es, own);
    await es.indices.updateAliases({ actions: [{ remove: { index: current!, alias: own } }] });
    await expect(ensureVersionWanted(es, mongo.collections.indexerState, config.homesAlias, own)).rejects.toBeInstanceOf(VersionUnreadError);
    const copy = await startReaderHeartbeat(mongo.collections.indexerState, { alias: own, mappingVersion: 'this', host: 'test' });
    await expect(ensureVersionWanted(es, mongo.collections.indexerState, config.homesAlias, own)).resolves.toBeUndefined();
    await copy.stop();
    await es.indices.updateAliases({ actions: [{ add: { index: current!, alias: own } }] });
    await es.indices.delete({ index: next.index });
  });
});
