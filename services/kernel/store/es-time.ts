/**
 * The Elasticsearch time a request spends, for its cost-settled rate limit (docs/decisions.md, "Rate
 * limits"): each homes search answered adds its `took` times the shards it read (shard-ms), to the meter of
 * the request it runs for. The meter follows the request's asynchronous calls (AsyncLocalStorage), so the
 * search transport, deep under a tool's handler, needs no handle to the request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface EsTimeMeter {
  shardMs: number;
}

const meters = new AsyncLocalStorage<EsTimeMeter>();

/** Runs `work` with a meter of its own; what it spent is read from the meter once it is done. */
export function metered<T>(meter: EsTimeMeter, work: () => Promise<T>): Promise<T> {
  return meters.run(meter, work);
}

/** Runs `work` outside any request's meter: work shared by every request (a per-generation read) is no one's cost. */
export function unmetered<T>(work: () => Promise<T>): Promise<T> {
  return meters.exit(work);
}

/** The shard-ms of one search answer: its `took` times the shards it read (0 when the answer does not say). */
export function shardMs(answer: { took?: number; _shards?: { total?: number } }): number {
  const took = typeof answer.took === 'number' ? answer.took : 0;
  const shards = typeof answer._shards?.total === 'number' ? answer._shards.total : 0;
  return took * shards;
}

/** Adds the answers' shard-ms to the meter of the request they ran for, if any. */
export function noteEsTime(answers: ReadonlyArray<{ took?: number; _shards?: { total?: number } }>): void {
  const meter = meters.getStore();
  if (meter) for (const a of answers) meter.shardMs += shardMs(a);
}
