/**
 * Streams home documents out of MongoDB: buildings and markets are loaded once into maps
 * (thousands, small), homes come from a cursor so 100,000 homes never sit in memory at once.
 */
import type { Filter } from 'mongodb';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../services/domain/inventory';
import type { Collections } from '../services/store/collections';
import { toHomeDocument, type HomeDocument } from './document';

export interface Lookups {
  properties: Map<string, PropertyRecord>;
  markets: Map<string, MarketRecord>;
}

export async function loadLookups(c: Collections): Promise<Lookups> {
  const [properties, markets] = await Promise.all([c.properties.find().toArray(), c.markets.find().toArray()]);
  return {
    properties: new Map(properties.map((p) => [p._id, p])),
    markets: new Map(markets.map((m) => [m.slug, m])),
  };
}

/** Search can only ever return published, undeleted homes; everything else stays out of the index. */
export const INDEXABLE: Filter<HomeRecord> = { published: true, deleted_at: null };

export function isIndexable(home: HomeRecord): boolean {
  return home.published && home.deleted_at === null;
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
 * The document of a home, reading a building or market written after the lookups were loaded;
 * null when a reference is really missing (the caller reports the home as skipped).
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
 * Documents of every indexable home, streamed from one cursor (no sort: order does not matter to a
 * bulk load, and a Mongo-wire server without sort pushdown would hold the whole result). A home whose
 * building or market is missing cannot be indexed: it is reported through `onSkip`, and one bad
 * record does not hold back the whole inventory.
 */
export async function* homeDocuments(
  c: Collections,
  lookups: Lookups,
  today: string,
  onSkip: (home: HomeRecord, reason: string) => void,
  filter: Filter<HomeRecord> = INDEXABLE,
): AsyncGenerator<HomeDocument> {
  const cursor = c.homes.find(filter, { batchSize: 1000 });
  try {
    for await (const home of cursor) {
      const doc = await documentOrSkip(c, home, lookups, today);
      if ('skipped' in doc) onSkip(home, doc.skipped);
      else yield doc;
    }
  } finally {
    await cursor.close();
  }
}
