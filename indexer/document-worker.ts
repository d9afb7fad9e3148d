/**
 * A worker thread of the document pool (document-pool.ts): parses the batches of homes it is sent
 * (BSON bytes, as MongoDB sent them) and builds the documents of the indexable ones, with the lookups and the day it was started with, and answers each batch with
 * the documents as JSON text (the bulk request's lines, so the main thread never serializes them)
 * and the homes it had to skip.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BSON } from 'mongodb';
import type { HomeRecord } from '../services/kernel/inventory/records';
import { homeRouting } from '../services/kernel/store/home-routing';
import { buildDocument, isIndexable, MissingReferenceError, type Lookups } from './source';
import type { BuiltBatch, PoolSetup } from './document-pool';

const { lookups, today, routingKeys } = workerData as PoolSetup;
const ready: Lookups = lookups;

parentPort?.on('message', ({ id, homes }: { id: number; homes: Uint8Array[] }) => {
  const answer: BuiltBatch = { id, documents: [], skipped: [] };
  for (const bytes of homes) {
    const home = BSON.deserialize(bytes) as HomeRecord;
    // Search can only ever return published, undeleted homes.
    if (!isIndexable(home)) continue;
    try {
      const doc = buildDocument(home, ready, today);
      answer.documents.push({ id: doc.home_id, routing: homeRouting(doc.market_slug, routingKeys), json: JSON.stringify(doc) });
    } catch (err) {
      if (!(err instanceof MissingReferenceError)) throw err;
      answer.skipped.push(err.message);
    }
  }
  parentPort?.postMessage(answer);
});
