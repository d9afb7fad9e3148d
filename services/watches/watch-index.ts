/**
 * The reverse search of the watches (docs/decisions.md, "Watches: a reverse search"): each live watch
 * is a small document of its flat criteria (its market, bedroom bounds, the boolean filters it
 * requires, its last day) in an index beside the homes alias, and a changed home's attributes are the
 * query that finds the watches it may concern. The answer is a superset (no price, dates or shape
 * here): each candidate is then decided exactly by the watch's own search. MongoDB stays the truth:
 * each watch keeps its criteria, and the index is rebuilt from them (rebuildWatchIndex) when missing.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import watchesMapping from '../../mappings/watches.json';
import { FLAG_FIELDS } from '../kernel/store/flag-fields';
import type { IsoDate } from '../kernel/inventory/records';
import type { SearchParams } from '../search/shared/search-params';
import type { Collections } from '../kernel/store/collections';
import type { WatchCriteriaRecord, WatchRecord } from '../kernel/store/watch-records';
import { isLive } from './owners';
import { unversionedAlias } from '../kernel/store/mapping-version';

/** One watches' index for every version of the homes index: the copies of two builds save and match the same watches. */
export const watchIndexOf = (homesAlias: string): string => `${unversionedAlias(homesAlias)}-watches`;

export type WatchCriteria = WatchCriteriaRecord;

/** What a changed home offers a watch's criteria (read from its index document). */
export interface HomeFacts {
  homeId: string;
  market_slug: string;
  bedrooms: number;
  /** The flag fields that are true for it. */
  flags: string[];
}

export function criteriaOf(watchId: string, params: Pick<SearchParams, 'location' | 'filters'>, expiresOn: IsoDate): WatchCriteria {
  const f = params.filters as Record<string, unknown>;
  const flags = Object.entries(FLAG_FIELDS).flatMap(([arg, field]) => (f[arg] === true ? [field] : []));
  return {
    watch_id: watchId,
    ...(params.location ? { market_slug: params.location.market.slug } : {}),
    ...(typeof f.min_bedrooms === 'number' ? { min_bedrooms: f.min_bedrooms } : {}),
    ...(typeof f.max_bedrooms === 'number' ? { max_bedrooms: f.max_bedrooms } : {}),
    flags,
    expires_on: expiresOn,
  };
}

interface WatchIndexDeps {
  es: Client;
  config: { homesAlias: string };
}

/** A new concrete index of the watches' criteria, behind `alias` when given. */
async function createWatchIndex(es: Client, index: string, alias?: string): Promise<void> {
  const body = watchesMapping as Omit<estypes.IndicesCreateRequest, 'index'>;
  await es.indices.create({ index, ...body, ...(alias ? { aliases: { [alias]: {} } } : {}) }).catch((err: unknown) => {
    if (!String((err as Error).message).includes('resource_already_exists')) throw err;
  });
}

/** The watches' index (an alias over one concrete index, so a rebuild swaps it whole), created when missing. */
async function ensureWatchIndex(es: Client, alias: string): Promise<void> {
  if (await es.indices.exists({ index: alias })) return;
  // One name for every copy that finds it missing at once: the second creation is a no-op.
  await createWatchIndex(es, `${alias}-first`, alias);
}

/** Whether the watches' index exists (a worker rebuilds it from MongoDB when it does not). */
export const watchIndexExists = ({ es, config }: WatchIndexDeps): Promise<boolean> => es.indices.exists({ index: watchIndexOf(config.homesAlias) });

/**
 * Rebuilds the watches' index from MongoDB, the truth: every live watch's criteria (as stored at its
 * creation, or from `criteriaFor` for a record without them) bulk-loaded into a new concrete index,
 * then the alias moved to it in one step (an index left under the alias's own name is replaced). The
 * watches saved while it ran are indexed again after the move. Returns how many watches it indexed.
 */
export async function rebuildWatchIndex(
  deps: WatchIndexDeps & { mongo: Collections },
  today: IsoDate,
  criteriaFor: (watch: WatchRecord) => Promise<WatchCriteria | null>,
): Promise<number> {
  const { es, mongo, config } = deps;
  const alias = watchIndexOf(config.homesAlias);
  const started = new Date();
  const index = `${alias}-${started.getTime()}`;
  await createWatchIndex(es, index);
  await es.indices.putSettings({ index, settings: { refresh_interval: '-1' } });
  let count = 0;
  const load = async (watches: WatchRecord[], target: string): Promise<void> => {
    const docs: WatchCriteria[] = [];
    for (const w of watches) {
      if (!isLive(w, today)) continue;
      const criteria = w.criteria ?? (await criteriaFor(w));
      if (criteria) docs.push(criteria);
    }
    for (let i = 0; i < docs.length; i += REBUILD_BULK) {
      const operations = docs.slice(i, i + REBUILD_BULK).flatMap((d) => [{ index: { _index: target, _id: d.watch_id } }, d]);
      const res = await es.bulk({ operations });
      if (res.errors) throw new Error(`watch index rebuild: ${JSON.stringify(res.items.find((it) => it.index?.error)?.index?.error)}`);
    }
    count += docs.length;
  };
  // Live watches are few beside their changes: the collection is read whole, in batches.
  const cursor = mongo.watches.find({ ended_at: null }).batchSize(REBUILD_BULK);
  let batch: WatchRecord[] = [];
  for await (const w of cursor) {
    batch.push(w);
    if (batch.length === REBUILD_BULK) {
      await load(batch, index);
      batch = [];
    }
  }
  await load(batch, index);
  await es.indices.putSettings({ index, settings: { refresh_interval: '1s' } });
  await es.indices.refresh({ index });
  const old = (await es.indices.exists({ index: alias })) ? Object.keys(await es.indices.get({ index: alias })) : [];
  if (old.includes(alias)) {
    // A concrete index under the alias's name (from before the alias): replaced, for a moment absent.
    await es.indices.delete({ index: alias });
    await es.indices.updateAliases({ actions: [{ add: { index, alias } }] });
  } else {
    await es.indices.updateAliases({ actions: [...old.map((o) => ({ remove: { index: o, alias } })), { add: { index, alias } }] });
    if (old.length > 0) await es.indices.delete({ index: old });
  }
  // Watches saved during the rebuild were indexed into the old index: again into the new one.
  await load(await mongo.watches.find({ created_at: { $gte: started } }).toArray(), alias);
  await es.indices.refresh({ index: alias });
  return count;
}

const REBUILD_BULK = 1_000;

/** Adds (or replaces) a watch's criteria; searchable once this returns. */
export async function indexWatch({ es, config }: WatchIndexDeps, criteria: WatchCriteria): Promise<void> {
  const index = watchIndexOf(config.homesAlias);
  await ensureWatchIndex(es, index);
  await es.index({ index, id: criteria.watch_id, document: criteria, refresh: 'wait_for' });
}

/** Removes an ended watch's criteria (nothing when it has none). */
export async function unindexWatch({ es, config }: WatchIndexDeps, watchId: string): Promise<void> {
  await es.delete({ index: watchIndexOf(config.homesAlias), id: watchId, refresh: 'wait_for' }, { ignore: [404] });
}

/** The query of one home: the watches whose criteria it meets, live on `today`. */
function homeQuery(home: HomeFacts, today: IsoDate): estypes.QueryDslQueryContainer {
  const lacking = Object.values(FLAG_FIELDS).filter((field) => !home.flags.includes(field));
  return {
    bool: {
      filter: [
        { range: { expires_on: { gte: today } } },
        { bool: { should: [{ term: { market_slug: home.market_slug } }, { bool: { must_not: { exists: { field: 'market_slug' } } } }] } },
        { bool: { should: [{ range: { min_bedrooms: { lte: home.bedrooms } } }, { bool: { must_not: { exists: { field: 'min_bedrooms' } } } }] } },
        { bool: { should: [{ range: { max_bedrooms: { gte: home.bedrooms } } }, { bool: { must_not: { exists: { field: 'max_bedrooms' } } } }] } },
      ],
      must_not: lacking.length ? [{ terms: { flags: lacking } }] : [],
    },
  };
}

const MAX_WATCHES_PER_HOME = 10_000;

/** For each watch some of the homes may concern: the ids of those homes (one _msearch for the batch). */
export async function candidateWatches({ es, config }: WatchIndexDeps, homes: readonly HomeFacts[], today: IsoDate): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (homes.length === 0) return out;
  const index = watchIndexOf(config.homesAlias);
  if (!(await es.indices.exists({ index }))) return out;
  const searches = homes.flatMap((home) => [{ index }, { size: MAX_WATCHES_PER_HOME, _source: false, query: homeQuery(home, today) }]);
  const res = await es.msearch({ searches });
  res.responses.forEach((r, i) => {
    if ('error' in r) throw new Error(`watch candidates: ${JSON.stringify(r.error)}`);
    for (const hit of r.hits.hits) {
      const list = out.get(hit._id!) ?? [];
      list.push(homes[i].homeId);
      out.set(hit._id!, list);
    }
  });
  return out;
}
