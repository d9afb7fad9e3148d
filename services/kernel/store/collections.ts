/** The MongoDB collections of the canonical inventory, typed, and the indexes they need. */
import type { Collection, Db } from 'mongodb';
import type { BookingIntentRecord, HomeRecord, MarketRecord, PropertyRecord } from '../inventory/records';
import type { InventoryChangeRecord } from './inventory-changes';
import {
  WATCH_COLLECTIONS,
  type StoredWatchChangeDocument,
  type WatchCardRecord,
  type WatchJournalRecord,
  type WatchMatchRecord,
  type WatchOutboxRecord,
  type WatchOwnerRecord,
  type WatchRecord,
} from './watch-records';
import { ensureUsedStatesIndex, USED_REQUEST_STATES_COLLECTION, type UsedRequestStateRecord } from './used-request-states';

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

/** Indexer bookkeeping: the lease and the freshness record. */
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
  /** What writers changed and the indexer has not applied yet (inventory-changes.ts). */
  inventoryChanges: Collection<InventoryChangeRecord>;
  /** Guest-confirmation states already used: each lets one write through (used-request-states.ts). */
  usedRequestStates: Collection<UsedRequestStateRecord>;
  /** Saved searches (watch-records.ts): the watches, their changes, what each matches now, each email's live ones. */
  watches: Collection<WatchRecord>;
  watchChanges: Collection<StoredWatchChangeDocument>;
  /** The cards the changes show, each once (services/watches/store.ts). */
  watchCards: Collection<WatchCardRecord>;
  watchMatches: Collection<WatchMatchRecord>;
  watchOwners: Collection<WatchOwnerRecord>;
  /** Watches whose webhook has changes to receive: what the sender reads (services/watches/webhook-sender.ts). */
  watchOutbox: Collection<WatchOutboxRecord>;
  /** The batch of changes being recorded, until its counters and match state have moved (services/watches/store.ts). */
  watchJournal: Collection<WatchJournalRecord>;
}

/** Where the service's copies share their rate-limit counts (transports/rate-limit.ts, rate-limiter-flexible's Mongo limiter). */
export const RATE_LIMITS_COLLECTION = 'rate_limits';

export function collections(db: Db): Collections {
  return {
    markets: db.collection<MarketRecord>('markets'),
    properties: db.collection<PropertyRecord>('properties'),
    homes: db.collection<HomeRecord>('homes'),
    photos: db.collection<PhotoBlobRecord>('photos'),
    policies: db.collection<PolicyRecord>('policies'),
    bookingIntents: db.collection<BookingIntentRecord>('booking_intents'),
    indexerState: db.collection<IndexerStateRecord>('indexer_state'),
    inventoryChanges: db.collection<InventoryChangeRecord>('inventory_changes'),
    usedRequestStates: db.collection<UsedRequestStateRecord>(USED_REQUEST_STATES_COLLECTION),
    watches: db.collection<WatchRecord>(WATCH_COLLECTIONS.watches),
    watchChanges: db.collection<StoredWatchChangeDocument>(WATCH_COLLECTIONS.watchChanges),
    watchCards: db.collection<WatchCardRecord>(WATCH_COLLECTIONS.watchCards),
    watchMatches: db.collection<WatchMatchRecord>(WATCH_COLLECTIONS.watchMatches),
    watchOwners: db.collection<WatchOwnerRecord>(WATCH_COLLECTIONS.watchOwners),
    watchOutbox: db.collection<WatchOutboxRecord>(WATCH_COLLECTIONS.watchOutbox),
    watchJournal: db.collection<WatchJournalRecord>(WATCH_COLLECTIONS.watchJournal),
  };
}

/**
 * Creates the indexes every deployment needs; safe to call on every start. Every read the service
 * makes is by `_id` or by one of these unique keys (docs/design.md, "The stores"); the indexer
 * reads by `_id` and the change log, so no secondary index is needed.
 */
export async function ensureIndexes(c: Collections, opts: { bookingIntentRetentionDays?: number } = {}): Promise<void> {
  await c.homes.createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' });
  await c.properties.createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' });
  // One record per guest email (docs/contract.md, booking_intent_tool rule 2: repeat calls create no duplicates).
  await c.bookingIntents.createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
  // A watch is found by its token's hash alone (the token is never kept).
  await c.watches.createIndex({ token_hash: 1 }, { unique: true, name: 'token_hash_unique' });
  // Each intent is kept for the retention period after its email's last call (BOOKING_INTENT_RETENTION_DAYS).
  if (opts.bookingIntentRetentionDays !== undefined) await ensureRetention(c, opts.bookingIntentRetentionDays * 86_400);
  // The shared rate limits: one count per client key, dropped by MongoDB once expired. Made here, at
  // start, rather than by the limiter on its first use under a request's deadline.
  const limits = c.homes.db.collection(RATE_LIMITS_COLLECTION);
  await limits.createIndex({ key: 1 }, { unique: true });
  await limits.createIndex({ expire: -1 }, { expireAfterSeconds: 0 });
  await ensureUsedStatesIndex(c.usedRequestStates);
}

export const RETENTION_INDEX = 'retention';

/**
 * The intents' TTL index on `updated_at`, with the configured period. A changed period replaces the
 * index (dropped, then made again): createIndex refuses new options under an existing name on MongoDB,
 * and the local Mongo-wire server would keep both.
 */
async function ensureRetention(c: Collections, seconds: number): Promise<void> {
  const existing = (await c.bookingIntents.indexes().catch(() => [])).find((i) => i.name === RETENTION_INDEX);
  if (existing && existing.expireAfterSeconds === seconds) return;
  if (existing) await c.bookingIntents.dropIndex(RETENTION_INDEX);
  await c.bookingIntents.createIndex({ updated_at: 1 }, { expireAfterSeconds: seconds, name: RETENTION_INDEX });
}
