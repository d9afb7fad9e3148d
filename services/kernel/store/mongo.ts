/** The MongoDB connection, one per process. */
import { MongoClient, type Db } from 'mongodb';
import { collections, type Collections } from './collections';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  collections: Collections;
  close(): Promise<void>;
}

/**
 * Batch jobs wait up to 10 s for a server. The request path passes `{ deadlineMs }`: a socket
 * silent that long, or no server selectable, fails the call (then a 503), and a failed read is not
 * retried, so a hanging store costs a request a bounded time. The driver reconnects by itself.
 */
export async function connectMongo(url: string, dbName: string, opts: { deadlineMs?: number } = {}): Promise<MongoHandle> {
  const client = new MongoClient(
    url,
    opts.deadlineMs
      ? {
          maxPoolSize: 20,
          // Every waiting call may open its connection at once: with the driver's default of 2 at a time, a
          // store that stopped answering makes the third waiting call wait for two connect timeouts.
          maxConnecting: 20,
          serverSelectionTimeoutMS: opts.deadlineMs,
          connectTimeoutMS: opts.deadlineMs,
          socketTimeoutMS: opts.deadlineMs,
          retryReads: false,
        }
      : { serverSelectionTimeoutMS: 10_000, maxPoolSize: 20 },
  );
  await client.connect();
  const db = client.db(dbName);
  return { client, db, collections: collections(db), close: () => client.close() };
}
