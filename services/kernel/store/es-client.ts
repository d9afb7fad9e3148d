/** The Elasticsearch client, one per process. */
import { Client } from '@elastic/elasticsearch';

export type EsClient = Client;

/**
 * Batch jobs (the indexer) wait long and retry; the request path passes `{ deadlineMs }` and gets
 * no retry, so a hanging Elasticsearch costs a request at most that long (then a 503).
 */
export function createEsClient(url: string, opts: { deadlineMs?: number } = {}): Client {
  if (opts.deadlineMs) return new Client({ node: url, requestTimeout: opts.deadlineMs, maxRetries: 0 });
  return new Client({ node: url, requestTimeout: 30_000, maxRetries: 2 });
}
