/**
 * One batch of homes (BSON bytes, as MongoDB sent them) made into the documents of the indexable ones,
 * with the lookups and the day of the run: what a worker thread of the document pool does with each
 * batch it is sent (document-worker.ts), and what a small rebuild does in its own thread
 * (document-pool.ts). The documents come as JSON text (the bulk request's lines), with the homes that
 * had to be skipped.
 */
import { BSON } from 'mongodb';
import type { HomeRecord } from '../services/kernel/inventory/records';
import { homeRouting } from '../services/kernel/store/home-routing';
import { buildDocument, isIndexable, MissingReferenceError } from './source';
import type { BuiltBatch, PoolSetup } from './document-pool';

export function buildBatch(id: number, homes: Uint8Array[], { lookups, today, routingKeys }: PoolSetup): BuiltBatch {
  const answer: BuiltBatch = { id, documents: [], skipped: [] };
  for (const bytes of homes) {
    const home = BSON.deserialize(bytes) as HomeRecord;
    // Search can only ever return published, undeleted homes.
    if (!isIndexable(home)) continue;
    try {
      const doc = buildDocument(home, lookups, today);
      answer.documents.push({ id: doc.home_id, routing: homeRouting(doc.market_slug, routingKeys), json: JSON.stringify(doc) });
    } catch (err) {
      if (!(err instanceof MissingReferenceError)) throw err;
      answer.skipped.push(err.message);
    }
  }
  return answer;
}
