/**
 * One batch of homes (BSON bytes, as MongoDB sent them) made into the documents of the indexable ones,
 * with the lookups and the day of the run: what a worker thread of the document pool does with each
 * batch it is sent (document-worker.ts), and what a small rebuild does in its own thread
 * (document-pool.ts). The documents come as JSON text (the bulk request's lines), with the homes that
 * had to be skipped and the words the thread had not seen before (the vocabulary's).
 */
import { BSON } from 'mongodb';
import type { HomeRecord } from '../services/kernel/inventory/records';
import { homeRouting, type RoutingKeys } from '../services/kernel/store/home-routing';
import { buildDocument, isIndexable, MissingReferenceError, type Lookups } from './source';
import type { PrebuiltDocument } from './bulk-load';
import type { WordsSeen } from './words-seen';

export interface PoolSetup {
  lookups: Lookups;
  today: string;
  /** Each market's routing key (services/kernel/store/home-routing.ts). */
  routingKeys: RoutingKeys;
}

export interface BuiltBatch {
  id: number;
  documents: PrebuiltDocument[];
  /** Why each skipped home could not be indexed (a missing building or market). */
  skipped: string[];
  /** The words of the batch's documents that this thread had not seen in an earlier batch (words-seen.ts). */
  words: string[];
}

export function buildBatch(id: number, homes: Uint8Array[], { lookups, today, routingKeys }: PoolSetup, seen: WordsSeen): BuiltBatch {
  const answer: BuiltBatch = { id, documents: [], skipped: [], words: [] };
  for (const bytes of homes) {
    const home = BSON.deserialize(bytes) as HomeRecord;
    // Search can only ever return published, undeleted homes.
    if (!isIndexable(home)) continue;
    try {
      const doc = buildDocument(home, lookups, today);
      seen.add(doc);
      answer.documents.push({ id: doc.home_id, routing: homeRouting(doc.market_slug, routingKeys), json: JSON.stringify(doc) });
    } catch (err) {
      if (!(err instanceof MissingReferenceError)) throw err;
      answer.skipped.push(err.message);
    }
  }
  answer.words = seen.take();
  return answer;
}
