/**
 * The reverse search of the watches (docs/decisions.md, "Watches: a reverse search"): each live watch
 * is a small document of its flat criteria (its market, bedroom bounds, the boolean filters it
 * requires, its last day) in an index beside the homes alias, and a changed home's attributes are the
 * query that finds the watches it may concern. The answer is a superset (no price, dates or shape
 * here): each candidate is then decided exactly by the watch's own search. MongoDB stays the truth;
 * the index is rebuilt from it when missing.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import watchesMapping from '../../mappings/watches.json';
import { FLAG_FIELDS } from '../kernel/store/flag-fields';
import type { IsoDate } from '../kernel/inventory/records';
import type { SearchParams } from '../search/shared/search-params';

export const watchIndexOf = (homesAlias: string): string => `${homesAlias}-watches`;

export interface WatchCriteria {
  watch_id: string;
  market_slug?: string;
  min_bedrooms?: number;
  max_bedrooms?: number;
  flags: string[];
  expires_on: IsoDate;
}

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

async function ensureWatchIndex(es: Client, index: string): Promise<void> {
  if (await es.indices.exists({ index })) return;
  await es.indices.create({ index, ...(watchesMapping as Omit<estypes.IndicesCreateRequest, 'index'>) }).catch((err: unknown) => {
    if (!String((err as Error).message).includes('resource_already_exists')) throw err;
  });
}

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
