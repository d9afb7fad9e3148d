/**
 * Reads homes out of MongoDB for the indexer: by `_id` slices (a full rebuild, ./id-slices.ts) or `_id` batches
 * (an incremental run), never by a range or a whole-collection cursor: the primary index serves
 * both on every Mongo-wire server, and the local one would otherwise hold a whole query's matches
 * in memory and its collection locked while it reads (stack/README.md). Buildings and markets are
 * loaded into maps.
 */
import { BSONRegExp } from 'mongodb';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../services/kernel/inventory/records';
import type { Collections } from '../services/kernel/store/collections';
import { toHomeDocument } from './document';
import { findByIds } from '../services/kernel/store/by-ids';
import { idSlices, type IdSlice } from './id-slices';
import type { HomeDocument } from '../services/kernel/store/home-document';

export interface Lookups {
  properties: Map<string, PropertyRecord>;
  markets: Map<string, MarketRecord>;
}

/** Homes read per `$in` query. */
const READ_BATCH = 1_000;

/** Every building and market: a full rebuild needs them all (thousands, small). */
export async function loadLookups(c: Collections): Promise<Lookups> {
  const [properties, markets] = await Promise.all([c.properties.find().toArray(), c.markets.find().toArray()]);
  return {
    properties: new Map(properties.map((p) => [p._id, p])),
    markets: new Map(markets.map((m) => [m.slug, m])),
  };
}

/** An empty map set, filled on demand by `lookupsFor` (incremental runs touch few buildings). */
export function emptyLookups(): Lookups {
  return { properties: new Map(), markets: new Map() };
}

/**
 * Adds to `lookups` the buildings and markets of `homes` it does not hold yet, read by `_id` slices
 * (../services/kernel/store/by-ids.ts): one query per hundred rather than one per building. An
 * incremental run of 968 homes on the bench world spent 1.0-1.3 s reading its buildings one at a time.
 */
export async function lookupsFor(c: Collections, homes: readonly HomeRecord[], lookups: Lookups): Promise<void> {
  const properties = new Set(homes.map((h) => h.property_id).filter((id) => !lookups.properties.has(id)));
  const markets = new Set(homes.map((h) => h.market_slug).filter((slug) => !lookups.markets.has(slug)));
  const [p, m] = await Promise.all([findByIds(c.properties, properties), findByIds(c.markets, markets)]);
  for (const property of p) lookups.properties.set(property._id, property);
  for (const market of m) lookups.markets.set(market.slug, market);
}

/** Search can only ever return published, undeleted homes; everything else stays out of the index. */
export function isIndexable(home: HomeRecord): boolean {
  return home.published && home.deleted_at === null;
}

/**
 * Every home as the server sent it (BSON bytes, not parsed), one `_id` slice at a time (./id-slices.ts),
 * the next slice read while the caller works on the current one: a full rebuild hands the bytes to
 * its worker threads, which parse them, so the main thread does not. `onRead` hears how many homes
 * each slice returned (the census the next rebuild plans its slices by).
 */
export async function* homeBytesBySlice(
  c: Collections,
  slices: readonly IdSlice[] = idSlices(),
  onRead?: (slice: IdSlice, count: number) => void,
): AsyncGenerator<Buffer[]> {
  const read = (i: number): Promise<Buffer[]> | null =>
    // A BSON regular expression, compiled once by the local server; a `$regex` string it compiles for every key it tests.
    i < slices.length ? c.homes.find<Buffer>({ _id: new BSONRegExp(slices[i].pattern) }, { raw: true }).toArray() : null;
  let pending = read(0);
  for (let i = 0; pending; i += 1) {
    const homes = await pending;
    onRead?.(slices[i], homes.length);
    pending = read(i + 1);
    yield homes;
  }
}

/**
 * The homes with these ids, batch by batch (`$in` on the primary key), the next batch read while
 * the caller works on the current one. Ids without a home (hard-deleted) are simply absent.
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
 * The document of a home from lookups that hold its building and market (`lookupsFor` read them);
 * `skipped` when a reference is really missing (the caller reports the home).
 */
export function documentOrSkip(home: HomeRecord, lookups: Lookups, today: string): HomeDocument | { skipped: string } {
  try {
    return buildDocument(home, lookups, today);
  } catch (err) {
    if (err instanceof MissingReferenceError) return { skipped: err.message };
    throw err;
  }
}
