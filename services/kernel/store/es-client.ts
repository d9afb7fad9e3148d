/** The Elasticsearch client, one per process, over one node or several (a comma list in ES_URL). */
import { Client, errors } from '@elastic/elasticsearch';
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
 * its half of the deadline) is sent once more, after the node watch has asked every node again, so
 * the second attempt avoids a node that is down or hangs, and gets what is left of the deadline. `attempt` is called afresh, so what it sends may differ
 * the second time (../../search/shared/search-transport.ts sends the preference of that moment).
 * On one node: one attempt, as always.
 */
export async function onceMore<T>(watch: NodeWatch, attempt: (requestTimeout?: number) => Promise<T>): Promise<T> {
  if (!watch.several) return attempt();
  const started = Date.now();
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof errors.TimeoutError || err instanceof errors.ConnectionError)) throw err;
    // A node may have stopped answering since the watch last asked: ask now (at most its probe timeout).
    await watch.recheck();
    return attempt(Math.max(100, watch.deadlineMs - (Date.now() - started)));
  }
}

/**
 * With a node watch (the request path on several nodes), a node that is down or hangs gets no
 * request while the watch says so, and is used again as soon as it answers (./node-watch.ts); the
 * client's own pool (weighted) only lowers a failed node's share a little. Batch work has no watch:
 * it retries on every node.
 */
export function createEsClient(esUrl: string, opts: { deadlineMs?: number; watch?: NodeWatch } = {}): Client {
  const nodes = esNodesOf(esUrl);
  const { watch } = opts;
  const filter = watch?.several ? { nodeFilter: (c: { url: URL }) => watch.answers(c.url) } : {};
  return new Client({ nodes, ...filter, ...attemptPolicy(nodes.length, opts.deadlineMs) });
}
