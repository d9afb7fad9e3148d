/** The MongoDB collections of the canonical inventory, typed, and the indexes they need. */
import type { Collection, Db } from 'mongodb';
import type {
  BookingIntentRecord,
  HomeRecord,
  MarketRecord,
  PropertyRecord,
} from '../domain/inventory';

export interface PhotoBlobRecord {
  _id: string; // photo id
  full: Buffer; // JPEG, 1200 px wide
  widget: Buffer; // JPEG, 800 px wide
  width: number;
  height: number;
  created_at: Date;
}

export interface PolicyRecord {
  _id: string; // topic
  topic: string;
  answer: string;
  updated_at: Date;
}

/** Indexer bookkeeping: the lease and the checkpoint/freshness record. */
export interface IndexerStateRecord {
  _id: string; // 'lease' | 'freshness'
  [key: string]: unknown;
}

export interface Collections {
  markets: Collection<MarketRecord>;
  properties: Collection<PropertyRecord>;
  homes: Collection<HomeRecord>;
  photos: Collection<PhotoBlobRecord>;
  policies: Collection<PolicyRecord>;
  bookingIntents: Collection<BookingIntentRecord>;
  indexerState: Collection<IndexerStateRecord>;
}

export function collections(db: Db): Collections {
  return {
    markets: db.collection<MarketRecord>('markets'),
    properties: db.collection<PropertyRecord>('properties'),
    homes: db.collection<HomeRecord>('homes'),
    photos: db.collection<PhotoBlobRecord>('photos'),
    policies: db.collection<PolicyRecord>('policies'),
    bookingIntents: db.collection<BookingIntentRecord>('booking_intents'),
    indexerState: db.collection<IndexerStateRecord>('indexer_state'),
  };
}

/** Creates the indexes every deployment needs; safe to call on every start. */
export async function ensureIndexes(c: Collections): Promise<void> {
  await c.homes.createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' });
  await c.homes.createIndex({ updated_at: 1, _id: 1 }, { name: 'updated_at' });
  await c.homes.createIndex({ property_id: 1 }, { name: 'property_id' });
  await c.homes.createIndex({ market_slug: 1 }, { name: 'market_slug' });
  await c.properties.createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' });
  await c.properties.createIndex({ updated_at: 1, _id: 1 }, { name: 'updated_at' });
  // One record per guest email (spec: booking_intent_tool rule 2, repeat calls create no duplicates).
  await c.bookingIntents.createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
}
