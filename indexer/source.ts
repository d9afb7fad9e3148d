/**
 * Reads homes out of MongoDB for the indexer. Homes are read by `_id` in batches (`$in` on the
 * primary key), never by a range or a whole-collection cursor: every Mongo-wire server serves that
 * from its primary index, and the local one would otherwise hold a whole query's matches in memory
 * (stack/README.md). Buildings and markets are loaded into maps.
 */
import type { Filter } from 'mongodb';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../services/domain/inventory';
import type { Collections } from '../services/store/collections';
import { toHomeDocument, type HomeDocument } from './document';

export interface Lookups {
  properties: Map<string, PropertyRecord>;
  markets: Map<string, MarketRecord>;
}

/** Homes read per `$in` query. */
export const READ_BATCH = 1_000;

/** Every building and market: a full rebuild needs them all (thousands, small). */
export async function loadLookups(c: Collections): Promise<Lookups> {
  const [properties, markets] = await Promise.all([c.properties.find().toArray(), c.markets.find().toArray()]);
  return {
    properties: new Map(properties.map((p) => [p._id, p])),
    markets: new Map(markets.map((m) => [m.slug, m])),
  };
}

/** An empty map set, filled on demand by `documentOrSkip` (incremental runs touch few buildings). */
export function emptyLookups(): Lookups {
  return { properties: new Map(), markets: new Map() };
}

/** Search can only ever return published, undeleted homes; everything else stays out of the index. */
export const INDEXABLE: Filter<HomeRecord> = { published: true, deleted_at: null };

export function isIndexable(home: HomeRecord): boolean {
  return home.published && home.deleted_at === null;
}

/** The `_id`s of every indexable home: a projection, small even at 100,000 homes. */
export async function indexableHomeIds(c: Collections): Promise<string[]> {
  const rows = await c.homes.find(INDEXABLE, { projection: { _id: 1 } }).toArray();
  return rows.map((r) => r._id);
}

/**
 * The homes with these ids, batch by batch, the next batch read while the caller works on the
 * current one. Ids without a home (hard-deleted) are simply absent.
 */
export async function* homesByIds(c: Collections, ids: readonly string[], batch = READ_BATCH): AsyncGenerator<HomeRecord[]> {
  const read = (from: number): Promise<HomeRecord[]> | null =>
    from < ids.length ? c.homes.find({ _id: { $in: ids.slice(from, from + batch) } }).toArray() : null;
  let pending = read(0);
  for (let from = 0; pending; from += batch) {
    const homes = await pending;
    pending = read(from + batch);
    yield homes;
  }
}

export class MissingReferenceError extends Error {
  constructor(home: HomeRecord, what: string) {
    super(`home ${home._id} (${home.slug}) refers to a missing ${what}`);
    this.name = 'MissingReferenceError';
  }
}

export function buildDocument(home: HomeRecord, lookups: Lookups, today: string): HomeDocument {
  const property = lookups.properties.get(home.property_id);
  if (!property) throw new MissingReferenceError(home, `property ${home.property_id}`);
  const market = lookups.markets.get(home.market_slug);
  if (!market) throw new MissingReferenceError(home, `market ${home.market_slug}`);
  return toHomeDocument(home, property, market, today);
}

/**
 * The document of a home, reading (by `_id`) a building or market the lookups do not hold yet;
 * `skipped` when a reference is really missing (the caller reports the home).
 */
export async function documentOrSkip(
  c: Collections,
  home: HomeRecord,
  lookups: Lookups,
  today: string,
): Promise<HomeDocument | { skipped: string }> {
  if (!lookups.properties.has(home.property_id)) {
    const p = await c.properties.findOne({ _id: home.property_id });
    if (p) lookups.properties.set(p._id, p);
  }
  if (!lookups.markets.has(home.market_slug)) {
    const m = await c.markets.findOne({ _id: home.market_slug });
    if (m) lookups.markets.set(m.slug, m);
  }
  try {
    return buildDocument(home, lookups, today);
  } catch (err) {
    if (err instanceof MissingReferenceError) return { skipped: err.message };
    throw err;
  }
}

/**
 * Documents of the homes with these ids that are indexable. A home whose building or market is
 * missing cannot be indexed: it is reported through `onSkip`, and one bad record does not hold back
 * the whole inventory.
 */
export async function* homeDocuments(
  c: Collections,
  ids: readonly string[],
  lookups: Lookups,
  today: string,
  onSkip: (home: HomeRecord, reason: string) => void,
): AsyncGenerator<HomeDocument> {
  for await (const homes of homesByIds(c, ids)) {
    for (const home of homes) {
      if (!isIndexable(home)) continue;
      const doc = await documentOrSkip(c, home, lookups, today);
      if ('skipped' in doc) onSkip(home, doc.skipped);
      else yield doc;
    }
  }
}
