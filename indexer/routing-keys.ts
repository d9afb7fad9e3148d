/**
 * Gives each market without a routing key one, in the index's mapping `_meta`
 * (services/kernel/store/home-routing.ts): the shard that holds the fewest markets gets the next
 * one, and the key is the first of `slug`, `slug~1`, `slug~2`, … that Elasticsearch routes to that
 * shard (asked with `_search_shards`, so the hash is Elasticsearch's own). Markets are keyed in order
 * of slug. Only the indexer calls this, under its lease, before it writes any home of those markets.
 */
import type { Client } from '@elastic/elasticsearch';
import { readRoutingKeys, ROUTING_KEYS_META, type RoutingKeys } from '../services/kernel/store/home-routing';
import { MAPPING_VERSION } from './es-admin';

/** Keys tried per market before it takes whatever shard its slug hashes to (a try lands on the wanted shard 1 time in `shards`). */
const MAX_TRIES = 400;

async function shardOf(es: Client, index: string, routing: string): Promise<number> {
  const res = await es.searchShards({ index, routing });
  const shard = res.shards[0]?.[0]?.shard;
  if (shard === undefined) throw new Error(`no shard answers for routing ${routing} on ${index}`);
  return shard;
}

async function shardCount(es: Client, index: string): Promise<number> {
  const settings = await es.indices.getSettings({ index, name: 'index.number_of_shards', flat_settings: true });
  const shards = Number(Object.values(settings)[0]?.settings?.['index.number_of_shards']);
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`cannot read the shard count of ${index}`);
  return shards;
}

/**
 * The keys of `index` (an index, or the alias of one) once every market named has one: its own keys,
 * then `inherited` (a rebuild passes the keys of the index it replaces, so a key never changes while
 * the alias moves), then new ones. Written to the index's `_meta` when any was added.
 */
export async function ensureRoutingKeys(es: Client, index: string, markets: Iterable<string>, inherited: RoutingKeys = {}): Promise<RoutingKeys> {
  const own = await readRoutingKeys(es, index);
  const keys: Record<string, string> = { ...inherited, ...own };
  const missing = [...new Set(markets)].filter((m) => !Object.hasOwn(keys, m)).sort();
  if (missing.length === 0 && Object.keys(keys).length === Object.keys(own).length) return keys;
  const shards = await shardCount(es, index);
  const load = new Array<number>(shards).fill(0);
  for (const key of Object.values(keys)) load[(await shardOf(es, index, key)) % shards] += 1;
  for (const market of missing) {
    const target = load.indexOf(Math.min(...load));
    let chosen = market;
    for (let i = 0; i < MAX_TRIES; i += 1) {
      const candidate = i === 0 ? market : `${market}~${i}`;
      if ((await shardOf(es, index, candidate)) === target) {
        chosen = candidate;
        break;
      }
    }
    keys[market] = chosen;
    load[(await shardOf(es, index, chosen)) % shards] += 1;
  }
  // `_meta` is replaced whole: the index's own mapping version goes with the keys (an index of another
  // version, kept for the copies that read it, keeps its version).
  const meta = Object.values(await es.indices.getMapping({ index }))[0]?.mappings?._meta;
  const version = typeof meta?.mapping_version === 'string' ? meta.mapping_version : MAPPING_VERSION;
  await es.indices.putMapping({ index, _meta: { mapping_version: version, [ROUTING_KEYS_META]: keys } });
  return keys;
}
