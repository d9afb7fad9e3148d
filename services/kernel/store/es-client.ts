/** The Elasticsearch client, one per process, over one node or several (a comma list in ES_URL). */
import { Client, errors, SniffingTransport, type TransportRequestOptions, type TransportRequestParams } from '@elastic/elasticsearch';
import { trace } from '@opentelemetry/api';
import { esNodesOf } from '../config';
import { tracingOn } from '../tracing';
import type { NodeWatch } from './node-watch';
import { clusterFailure } from '../errors';

export type EsClient = Client;

/**
 * How long one attempt may take, and how many other nodes a failed attempt is retried on.
 * Batch jobs (the indexer) wait long and retry on any node. The request path passes `{ deadlineMs }`:
 * an attempt of the whole deadline (a hanging Elasticsearch costs a request at most that long, then a
 * 503); on several nodes, a refused connection is sent once more, at once, to another node. An
 * attempt that timed out the client does not retry (its `retryOnTimeout` does not reach the transport
 * in this client version), so the request path's reads go through `onceMore`, which hedges them at
 * half the deadline (docs/decisions.md, "Scale-out"). The default timeout is the whole deadline
 * because the connection pool (undici) ends a response slower than it whatever a call asks: at half
 * the deadline it had cut the hedged read's first attempt there.
 */
export function attemptPolicy(nodes: number, deadlineMs?: number): { requestTimeout: number; maxRetries: number } {
  if (!deadlineMs) return { requestTimeout: 30_000, maxRetries: Math.max(2, nodes) };
  return { requestTimeout: deadlineMs, maxRetries: nodes <= 1 ? 0 : 1 };
}

/** What one attempt of a read is given: its time, and a signal of its own that ends it. */
export interface Attempt {
  requestTimeout: number;
  signal: AbortSignal;
}

/** An answer that says the attempt reached no node that could answer: worth sending once more. */
function noAnswer(err: unknown): boolean {
  return err instanceof errors.TimeoutError || err instanceof errors.ConnectionError || clusterFailure(err);
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * A read on several nodes, hedged: the first attempt is given the whole deadline; if it has not
 * answered at half of it, the node watch asks again every node it believes answers and a second
 * attempt is sent beside it (with the preference of that moment, so it avoids a node that stopped
 * answering), and the first answer of the two is the read's. An attempt that fails at once (the
 * connection refused, a 5xx while a master is elected) is sent again the same way, without waiting.
 * So a read slowed by a loaded machine is not thrown away at half the deadline, and a read waiting
 * on a node that froze still ends within it (docs/decisions.md, "Scale-out"). `attempt` is called
 * afresh each time (../../search/shared/search-transport.ts sends the preference of that moment).
 * On one node: one attempt of the whole deadline. `signal` (the request's) ends both when it aborts.
 */
export async function onceMore<T>(watch: NodeWatch, attempt: (a: Attempt) => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!watch.several) return within(watch.deadlineMs, attempt, signal);
  const started = Date.now();
  const left = (): number => Math.max(100, watch.deadlineMs - (Date.now() - started));
  // Ends the attempt still under way once the other has answered.
  const done = new AbortController();
  const ends = signal ? AbortSignal.any([signal, done.signal]) : done.signal;
  try {
    const first = settle(within(watch.deadlineMs, attempt, ends));
    let half: NodeJS.Timeout | undefined;
    const early = await Promise.race([first, new Promise<null>((r) => (half = setTimeout(() => r(null), Math.floor(watch.deadlineMs / 2))))]);
    clearTimeout(half);
    if (early !== null) {
      if (early.ok) return early.value;
      if (!noAnswer(early.error)) throw early.error;
      // A node may have stopped answering since the watch last asked: ask now (at most its probe timeout).
      await watch.recheck();
      return await within(left(), attempt, signal);
    }
    // No answer at half the deadline: ask the nodes again (unless the first answers meanwhile), then hedge.
    const checked = await Promise.race([first, watch.recheck().then(() => null)]);
    if (checked?.ok) return checked.value;
    if (checked && !noAnswer(checked.error)) throw checked.error;
    const second = settle(within(left(), attempt, ends));
    let pending = checked ? [second] : [first, second];
    let last: unknown;
    while (pending.length > 0) {
      const [winner, index] = await Promise.race(pending.map((p, i) => p.then((r) => [r, i] as const)));
      if (winner.ok) return winner.value;
      last = winner.error;
      if (!noAnswer(last)) throw last;
      pending = pending.filter((_, i) => i !== index);
    }
    throw last;
  } finally {
    done.abort();
  }
}

/**
 * One attempt, ended on time by a timer of our own: the client's timeout cannot be trusted for that.
 * A timeout equal to the client's own is left to undici, whose timers of a second or more fire up to
 * half a second late (1 s became 1.5 s, and a read's second attempt was left 100 ms); any other
 * timeout the client enforces by dispatching an `abort` event on the signal it was given, which, were
 * that the request's signal, would wake every listener of the request (its deadline among them)
 * though nothing aborted. So the client gets a signal of this attempt's own, which follows the
 * request's when that really aborts.
 */
async function within<T>(ms: number, attempt: (a: Attempt) => Promise<T>, outer?: AbortSignal): Promise<T> {
  outer?.throwIfAborted();
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(), ms);
  const follow = (): void => {
    if (outer?.aborted) own.abort(outer.reason);
  };
  outer?.addEventListener('abort', follow);
  try {
    return await attempt({ requestTimeout: ms, signal: own.signal });
  } catch (err) {
    // Our timer ended it (the client reports an abort): it is a timeout, as the client's would be.
    if (err instanceof errors.RequestAbortedError && own.signal.aborted && !outer?.aborted) throw new errors.TimeoutError(`no answer within ${ms} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', follow);
  }
}

/**
 * With a node watch (the request path on several nodes), a node that is down or hangs gets no
 * request while the watch says so, and is used again as soon as it answers (./node-watch.ts); the
 * client's own pool (weighted) only lowers a failed node's share a little. Batch work has no watch:
 * it retries on every node.
 */
/**
 * The client's transport, whose OpenTelemetry span is made only under a sampled trace. The client makes
 * one for every call otherwise, recorded or not: with the SDK started, a span started and sampled out
 * and an async context entered per call; without it, the API's no-op span and context. A call of an
 * unsampled trace, or with tracing off, skips both; a sampled one is traced as before.
 */
class TracedWhenSampled extends SniffingTransport {
  override request(params: TransportRequestParams, options?: TransportRequestOptions): Promise<never> {
    if (tracingOn() && trace.getActiveSpan()?.isRecording()) return super.request(params, options) as Promise<never>;
    return super.request(params, { ...options, openTelemetry: { ...options?.openTelemetry, enabled: false } }) as Promise<never>;
  }
}

export function createEsClient(esUrl: string, opts: { deadlineMs?: number; watch?: NodeWatch } = {}): Client {
  const nodes = esNodesOf(esUrl);
  const { watch } = opts;
  const filter = watch?.several ? { nodeFilter: (c: { url: URL }) => watch.answers(c.url) } : {};
  return new Client({ nodes, ...filter, ...attemptPolicy(nodes.length, opts.deadlineMs), Transport: TracedWhenSampled });
}
