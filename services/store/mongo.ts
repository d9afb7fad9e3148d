/** The MongoDB connection, one per process. */
import { MongoClient, type Db } from 'mongodb';
import { collections, type Collections } from './collections';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
  collections: Collections;
  close(): Promise<void>;
}

export async function connectMongo(url: string, dbName: string): Promise<MongoHandle> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 20 });
  await client.connect();
  const db = client.db(dbName);
  return { client, db, collections: collections(db), close: () => client.close() };
}
