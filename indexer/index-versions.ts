/**
 * The homes indexes of every mapping version that copies read (docs/decisions.md, "Versioned
 * aliases"): each behind `<alias>-v<version>`, all kept fresh by the incremental runs, and an older one
 * retired (its alias, its places and its index deleted) once no live copy reads it and a newer one is
 * complete. The unversioned alias follows the index of the last ordinary full rebuild.
 */
import { errors, type Client } from '@elastic/elasticsearch';
import type { Collection } from 'mongodb';
import { placesAliasOf } from '../services/kernel/config';
import type { IndexerStateRecord } from '../services/kernel/store/collections';
import { forgetExpiredReaders, liveReaders } from '../services/kernel/store/index-readers';
import { versionedAlias, versionOfAlias } from '../services/kernel/store/mapping-version';
import { forgetVocabulary, readVocabulary, writeVocabulary } from '../services/kernel/store/vocabulary-store';
import { aliasTargets, deleteIndexes } from './es-admin';

/**
 * This version has no index, others have, and no copy reads this version: the indexer is an older
 * build left running after a deploy (its index retired). It does not build one again.
 */
export class VersionUnreadError extends Error {
  constructor(alias: string) {
    super(`no copy reads ${alias} and a newer version's index serves: not building it again (stop this indexer, or prepare the version with --for-version)`);
    this.name = 'VersionUnreadError';
  }
}

/** Throws VersionUnreadError when building `own` would only bring back an index nobody reads. */
export async function ensureVersionWanted(es: Client, state: Collection<IndexerStateRecord>, alias: string, own: string): Promise<void> {
  const all = await versionIndexes(es, alias);
  if (all.length === 0 || all.some((v) => v.alias === own)) return;
  if ((await liveReaders(state)).some((r) => r.alias === own)) return;
  throw new VersionUnreadError(own);
}

/** One versioned alias and the index behind it (the timestamped name: later names, later builds). */
export interface VersionIndex {
  alias: string;
  version: string;
  index: string;
}

/** Every versioned alias of `alias` with its index, oldest build first. */
export async function versionIndexes(es: Client, alias: string): Promise<VersionIndex[]> {
  let res: Record<string, { aliases?: Record<string, unknown> }>;
  try {
    res = await es.indices.getAlias({ name: `${alias}-v*` });
  } catch (err) {
    if (err instanceof errors.ResponseError && err.statusCode === 404) return [];
    throw err;
  }
  const found: VersionIndex[] = [];
  for (const [index, entry] of Object.entries(res)) {
    for (const name of Object.keys(entry.aliases ?? {})) {
      const version = versionOfAlias(alias, name);
      if (version) found.push({ alias: name, version, index });
    }
  }
  return found.sort((a, b) => a.index.localeCompare(b.index) || a.alias.localeCompare(b.alias));
}

/** The `_meta.mapping_version` of each index named (absent when it has none). */
async function versionsOf(es: Client, indexes: string[]): Promise<Map<string, string>> {
  if (indexes.length === 0) return new Map();
  const res = await es.indices.getMapping({ index: indexes });
  const out = new Map<string, string>();
  for (const [index, m] of Object.entries(res)) {
    const v = m.mappings?._meta?.mapping_version;
    if (typeof v === 'string') out.set(index, v);
  }
  return out;
}

/**
 * An index the unversioned alias points at without the versioned alias of its own version (built
 * before versioned aliases, or by hand) is given it: copies of that version find it under their alias.
 */
export async function adoptUnversioned(es: Client, state: Collection<IndexerStateRecord>, alias: string): Promise<void> {
  const targets = await aliasTargets(es, alias);
  const versions = await versionsOf(es, targets);
  const have = new Set((await versionIndexes(es, alias)).map((v) => v.alias));
  const adds = [...versions]
    .map(([index, version]) => ({ index, alias: versionedAlias(alias, version) }))
    .filter((a) => versionOfAlias(alias, a.alias) !== null && !have.has(a.alias));
  if (adds.length === 0) return;
  // The words first: a copy reading the new alias finds the same vocabulary as under the unversioned one.
  const words = await readVocabulary(state, alias);
  for (const a of adds) if (words !== null) await writeVocabulary(state, a.alias, words);
  await es.indices.updateAliases({ actions: adds.map((add) => ({ add })) });
}

/**
 * Retires every versioned index that no live copy reads, that is not the running indexer's own
 * version, and that a newer complete index (a later build behind another versioned alias) replaces:
 * the unversioned alias moves to the newest index first when it pointed there; then the alias and its
 * places alias are removed, and the indexes deleted once a search that read them just before has
 * ended. Returns the aliases retired.
 */
export async function retireUnread(
  es: Client,
  state: Collection<IndexerStateRecord>,
  alias: string,
  opts: { own: string; retireAfterMs: number; now?: Date },
): Promise<string[]> {
  const now = opts.now ?? new Date();
  await forgetExpiredReaders(state, now);
  const all = await versionIndexes(es, alias);
  const newest = all[all.length - 1];
  if (!newest) return [];
  const read = new Set((await liveReaders(state, now)).map((r) => r.alias));
  const retiring = all.filter((v) => v.index !== newest.index && v.alias !== opts.own && !read.has(v.alias));
  if (retiring.length === 0) return [];
  const kept = new Set(all.filter((v) => !retiring.includes(v)).map((v) => v.index));
  const gone = [...new Set(retiring.map((v) => v.index))].filter((i) => !kept.has(i));
  const unversioned = await aliasTargets(es, alias);
  const places = await Promise.all(retiring.map(async (v) => ({ alias: placesAliasOf(v.alias), targets: await aliasTargets(es, placesAliasOf(v.alias)) })));
  await es.indices.updateAliases({
    actions: [
      ...(unversioned.some((i) => gone.includes(i))
        ? [...unversioned.map((index) => ({ remove: { index, alias } })), { add: { index: newest.index, alias, is_write_index: true } }]
        : []),
      ...retiring.map((v) => ({ remove: { index: v.index, alias: v.alias } })),
      ...places.flatMap((p) => p.targets.map((index) => ({ remove: { index, alias: p.alias } }))),
    ],
  });
  if (opts.retireAfterMs > 0) await new Promise((r) => setTimeout(r, opts.retireAfterMs));
  await deleteIndexes(es, [...gone, ...places.flatMap((p) => p.targets)]);
  // Places indexes of a retired alias left by an earlier sync (swapped out, awaiting their deletion).
  for (const v of retiring) {
    await es.indices.delete({ index: `${placesAliasOf(v.alias)}-*`, ignore_unavailable: true, allow_no_indices: true });
  }
  for (const v of retiring) await forgetVocabulary(state, v.alias);
  return retiring.map((v) => v.alias);
}
