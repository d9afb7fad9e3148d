/** Index lifecycle on Elasticsearch: create a timestamped index, swap the alias, drop orphans. */
import type { Client } from '@elastic/elasticsearch';
import shipped from '../mappings/homes.json';
import type { IndexReplicas } from '../services/kernel/config';
import { buildMapping, mappingVersionOf, versionedAlias } from '../services/kernel/store/mapping-version';
import { withLongCalls } from './long-calls';

/** The homes mapping this build creates indexes with (mappings/homes.json unless HOMES_MAPPING_FILE names another). */
const mapping = buildMapping(shipped);

/**
 * The version of the mapping and of the card's layout an index was created with, kept in its
 * mapping's `_meta`: an index built from another version holds other fields (the service would query
 * fields it lacks), cards it would misread, documents on other shards or minimum keys a search no longer asks for, so the indexer rebuilds it instead of updating it
 * (docs/decisions.md, "Indexer"). Each version is read under an alias of its own (ownAlias).
 */
export const MAPPING_VERSION = mappingVersionOf(mapping);

/** The alias this build's copies read and its indexer builds: `<alias>-v<MAPPING_VERSION>`. */
export const ownAlias = (alias: string): string => versionedAlias(alias, MAPPING_VERSION);

/** `homes-20261122t031700123z`: sortable, unique per run, lowercase as ES requires. */
export function timestampedIndexName(prefix: string, now: Date): string {
  return `${prefix}-${now.toISOString().replace(/[-:.]/g, '').toLowerCase()}`;
}

const indexPattern = (prefix: string): RegExp => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d{8}t\\d{9}z$`);

export async function createHomesIndex(es: Client, name: string): Promise<void> {
  await es.indices.create({
    index: name,
    // Bulk loading: no refreshes until the load is done (restored before the alias swap).
    settings: { ...mapping.settings, refresh_interval: '-1' },
    mappings: { ...mapping.mappings, _meta: { mapping_version: MAPPING_VERSION } } as never,
  });
}

/** Whether every index the alias points at was created from this version of the mapping (false without one). */
export async function aliasMappingCurrent(es: Client, alias: string): Promise<boolean> {
  const targets = await aliasTargets(es, alias);
  if (targets.length === 0) return false;
  const res = await es.indices.getMapping({ index: targets });
  return targets.every((t) => res[t]?.mappings?._meta?.mapping_version === MAPPING_VERSION);
}

/** The index settings of a replica count: a number, or `auto` (`0-1`: one replica once there is a second node). */
export function replicaSettings(replicas: IndexReplicas): { number_of_replicas: number; auto_expand_replicas: string } {
  return replicas === 'auto' ? { number_of_replicas: 0, auto_expand_replicas: '0-1' } : { number_of_replicas: replicas, auto_expand_replicas: 'false' };
}

/** How long a loaded index may take to get its replicas copied before the run fails (the alias stays where it was). */
const REPLICAS_WAIT = '10m';

/**
 * Loaded without replicas or refreshes (one copy to write); then refreshed, merged to one segment,
 * given its replicas, and returned only once every copy is allocated (green), so the alias never
 * points at an index that one lost node would take away.
 */
export async function finishLoading(es: Client, name: string, replicas: IndexReplicas = 'auto'): Promise<void> {
  await es.indices.putSettings({ index: name, settings: { refresh_interval: mapping.settings.refresh_interval } });
  await es.indices.refresh({ index: name });
  // One segment before readers arrive: a bulk load leaves ~20, and every nested filter and nested
  // sort of a dated search runs per segment (17 s at 100,000 homes; a dated search 15 -> 13 ms).
  // Both calls may outlast the client's timeout (long-calls.ts).
  const health = await withLongCalls(es, async (long) => {
    await long.indices.forcemerge({ index: name, max_num_segments: 1 });
    await es.indices.putSettings({ index: name, settings: { index: replicaSettings(replicas) } });
    return long.cluster.health({ index: name, wait_for_status: 'green', timeout: REPLICAS_WAIT });
  });
  if (health.timed_out || health.status !== 'green') {
    throw new Error(
      `index ${name} is ${health.status} after ${REPLICAS_WAIT}: its replicas (INDEX_REPLICAS=${replicas}) cannot be placed on ${health.number_of_data_nodes} data node(s)`,
    );
  }
}

/** The concrete indexes the alias points at now (normally one), empty when it does not exist. */
export async function aliasTargets(es: Client, alias: string): Promise<string[]> {
  const exists = await es.indices.existsAlias({ name: alias });
  if (!exists) return [];
  const res = await es.indices.getAlias({ name: alias });
  return Object.keys(res).sort();
}

/** Points the alias at `next` and away from every other index, in one atomic call. */
export async function swapAlias(es: Client, alias: string, prefix: string, next: string, previous: string[]): Promise<void> {
  await es.indices.updateAliases({
    actions: [
      ...previous.filter((p) => p !== next).map((index) => ({ remove: { index, alias } })),
      // Also any of our indexes that gained the alias since we read it: the alias ends on `next` alone.
      { remove: { index: `${prefix}-*`, alias, must_exist: false } },
      { add: { index: next, alias, is_write_index: true } },
    ],
  });
}

/** Our timestamped indexes that the alias does not point at: left by a killed or failed run. */
export async function orphanIndexes(es: Client, prefix: string, alias: string): Promise<string[]> {
  const live = new Set(await aliasTargets(es, alias));
  const res = await es.cat.indices({ index: `${prefix}-*`, format: 'json', h: 'index' });
  const pattern = indexPattern(prefix);
  return (res as Array<{ index?: string }>)
    .map((r) => r.index ?? '')
    .filter((name) => pattern.test(name) && !live.has(name))
    .sort();
}

export async function deleteIndexes(es: Client, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await es.indices.delete({ index: names.join(','), ignore_unavailable: true });
}

/**
 * The ids of the indexed homes whose `field` is one of `values` (homes of changed buildings or
 * markets), paged with search_after on the unique home_id.
 */
export async function indexedHomeIds(es: Client, alias: string, field: 'property_id' | 'market_slug', values: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < values.length; i += 1_000) {
    let after: string[] | undefined;
    for (;;) {
      const res = await es.search({
        index: alias,
        size: 5_000,
        _source: false,
        query: { terms: { [field]: values.slice(i, i + 1_000) } },
        sort: [{ home_id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      });
      const hits = res.hits.hits;
      for (const h of hits) if (h._id) ids.push(h._id);
      if (hits.length < 5_000) break;
      after = hits[hits.length - 1].sort as string[];
    }
  }
  return ids;
}

/**
 * Where each of these homes is indexed now: its routing (the market it was indexed under), absent
 * when the home is not in the index. An update that moves a home to another market, and a delete,
 * must name the shard the old document is on.
 */
export async function indexedRoutings(es: Client, alias: string, ids: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 5_000) {
    const batch = ids.slice(i, i + 5_000);
    const res = await es.search({ index: alias, size: batch.length, _source: false, query: { ids: { values: batch } } });
    for (const h of res.hits.hits) if (h._id && h._routing) found.set(h._id, h._routing);
  }
  return found;
}
