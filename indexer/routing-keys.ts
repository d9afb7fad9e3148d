/**
 * Gives each market without a routing key one (services/kernel/store/home-routing.ts): the shard
 * that holds the fewest markets gets the next one, and the key is the first of `slug`, `slug~1`,
 * `slug~2`, … that Elasticsearch routes to that shard (asked with `_search_shards`, so the hash is
 * Elasticsearch's own). Markets are keyed in order of slug, so two runs over the same markets and
 * shards choose the same keys. Only the indexer calls this, under its lease.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from '../services/kernel/store/collections';
import { addRoutingKeys, readRoutingKeys, type RoutingKeys } from '../services/kernel/store/home-routing';

/** Keys tried per market before it takes whatever shard its slug hashes to (a shard is hit 1 time in `shards` per try). */
const MAX_TRIES = 400;

async function shardOf(es: Client, index: string, routing: string): Promise<number> {
  const res = await es.searchShards({ index, routing });
  const shard = res.shards[0]?.[0]?.shard;
  if (shard === undefined) throw new Error(`no shard answers for routing ${routing} on ${index}`);
  return shard;
}

/** The keys of every market named, those already given kept; `index` is the index (or alias) the keys are for. */
export async function ensureRoutingKeys(es: Client, index: string, state: Collection<IndexerStateRecord>, markets: Iterable<string>): Promise<RoutingKeys> {
  const keys = await readRoutingKeys(state);
  const missing = [...new Set(markets)].filter((m) => keys[m] === undefined).sort();
  if (missing.length === 0) return keys;
  const settings = await es.indices.getSettings({ index, name: 'index.number_of_shards', flat_settings: true });
  const shards = Number(Object.values(settings)[0]?.settings?.['index.number_of_shards']);
  if (!Number.isInteger(shards) || shards < 1) throw new Error(`cannot read the shard count of ${index}`);
  const load = new Array<number>(shards).fill(0);
  for (const key of Object.values(keys)) load[(await shardOf(es, index, key)) % shards] += 1;
  const added: Record<string, string> = {};
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
    added[market] = chosen;
    load[(await shardOf(es, index, chosen)) % shards] += 1;
  }
  return addRoutingKeys(state, added);
}
