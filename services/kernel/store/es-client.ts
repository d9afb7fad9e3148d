/** The Elasticsearch client, one per process, over one node or several (a comma list in ES_URL). */
import { Client, ClusterConnectionPool, errors } from '@elastic/elasticsearch';
import { esNodesOf } from '../config';
import type { NodeWatch } from './node-watch';

export type EsClient = Client;

/**
 * How long one attempt may take, and how many other nodes a failed attempt is retried on.
 * Batch jobs (the indexer) wait long and retry on any node. The request path passes `{ deadlineMs }`:
 * on one node, one attempt of the whole deadline (a hanging Elasticsearch costs a request at most
 * that long, then a 503); on several nodes, a node that refuses the connection or does not answer
 * within half the deadline is marked down and the request is sent once more, to another node, so a
 * read survives the loss of a node and still ends within the deadline (docs/decisions.md, "Scale-out").
 * The client retries a refused connection itself; an attempt that timed out it does not retry (its
 * `retryOnTimeout` does not reach the transport in this client version), so the request path's
 * reads go through `onceMore`.
 */
export function attemptPolicy(nodes: number, deadlineMs?: number): { requestTimeout: number; maxRetries: number } {
  if (!deadlineMs) return { requestTimeout: 30_000, maxRetries: Math.max(2, nodes) };
  if (nodes <= 1) return { requestTimeout: deadlineMs, maxRetries: 0 };
  return { requestTimeout: Math.floor(deadlineMs / 2), maxRetries: 1 };
}

/**
 * A read on several nodes: an attempt that got no answer (the connection refused, or nothing within
 * its half of the deadline) is sent once more (a refused node is out of the pool until it answers a
 * ping; one that hangs, while the node watch says so). `attempt` is called afresh, so what it sends may differ
 * the second time (../../search/shared/search-transport.ts sends the preference of that moment).
 * On one node: one attempt, as always.
 */
export async function onceMore<T>(several: boolean, attempt: () => Promise<T>): Promise<T> {
  if (!several) return attempt();
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof errors.TimeoutError || err instanceof errors.ConnectionError)) throw err;
    return attempt();
  }
}

/**
 * On several nodes, a node that failed is left out until it answers a ping again (the cluster pool:
 * first after 60 s, then less and less often while it stays down), so a frozen node costs a few
 * requests one attempt each, not a share of every request after it; the default weighted pool
 * only lowers a failed node's share a little.
 */
export function createEsClient(esUrl: string, opts: { deadlineMs?: number; watch?: NodeWatch } = {}): Client {
  const nodes = esNodesOf(esUrl);
  const { watch } = opts;
  const pool = nodes.length > 1 ? { ConnectionPool: ClusterConnectionPool, resurrectStrategy: 'ping' as const } : {};
  // The watch's verdict on a node that hangs (no refused connection for the pool to see).
  const filter = watch?.several ? { nodeFilter: (c: { url: URL }) => watch.answers(c.url) } : {};
  return new Client({ nodes, ...pool, ...filter, ...attemptPolicy(nodes.length, opts.deadlineMs) });
}
