/**
 * Calls that may take minutes (a force-merge of a large index, a wait for its replicas) on a client of
 * their own. The Elasticsearch client's connections time out at the client's `requestTimeout` whatever
 * a request asks (undici sets its header and body timeouts per connection, not per request: a 30 s
 * client cut a 400,000-home rebuild's force-merge short), so a per-request timeout cannot lengthen
 * them; a second client over the same nodes, closed after the call, can.
 */
import { Client } from '@elastic/elasticsearch';

/** Longest a force-merge or a wait for green may take before the run fails. */
export const LONG_CALL_MS = 30 * 60_000;

export async function withLongCalls<T>(es: Client, work: (long: Client) => Promise<T>, timeoutMs = LONG_CALL_MS): Promise<T> {
  const nodes = es.connectionPool.connections.map((c) => c.url.toString());
  const long = new Client({ nodes, requestTimeout: timeoutMs, maxRetries: 0 });
  try {
    return await work(long);
  } finally {
    await long.close();
  }
}
