/** The Elasticsearch client, one per process, over one node or several (a comma list in ES_URL). */
import { Client } from '@elastic/elasticsearch';
import { esNodesOf } from '../config';

export type EsClient = Client;

/**
 * How long one attempt may take, and how many other nodes a failed attempt is retried on.
 * Batch jobs (the indexer) wait long and retry on any node. The request path passes `{ deadlineMs }`:
 * on one node, one attempt of the whole deadline (a hanging Elasticsearch costs a request at most
 * that long, then a 503); on several nodes, a node that refuses the connection or does not answer
 * within half the deadline is marked down and the request is sent once more, to another node, so a
 * read survives the loss of a node and still ends within the deadline (docs/decisions.md, "Scale-out").
 */
export function attemptPolicy(nodes: number, deadlineMs?: number): { requestTimeout: number; maxRetries: number; retryOnTimeout: boolean } {
  if (!deadlineMs) return { requestTimeout: 30_000, maxRetries: Math.max(2, nodes), retryOnTimeout: false };
  if (nodes <= 1) return { requestTimeout: deadlineMs, maxRetries: 0, retryOnTimeout: false };
  return { requestTimeout: Math.floor(deadlineMs / 2), maxRetries: 1, retryOnTimeout: true };
}

export function createEsClient(esUrl: string, opts: { deadlineMs?: number } = {}): Client {
  const nodes = esNodesOf(esUrl);
  return new Client({ nodes, ...attemptPolicy(nodes.length, opts.deadlineMs) });
}
