/**
 * Cost-settled rate limits (docs/decisions.md, "Rate limits"): a request is admitted on its estimated
 * weight (its tool's `cost`), and once answered its real cost, the bytes of its answer and the
 * Elasticsearch time its searches took (shard-ms, ../kernel/store/es-time.ts), is settled on the same
 * bucket: a request heavier than its weight pays the difference, so a costly request spends more points
 * than a cheap one, on GET and on the tool server alike.
 */
import type { Context, Middleware, Next } from 'koa';
import { metered, type EsTimeMeter } from '../kernel/store/es-time';
import type { RateBucket, RateLimits } from './rate-limit';

/** Bytes of an answer one point pays for: a search page of 25 is well under it, a country of building cards about 6. */
export const BYTES_PER_POINT = 64 * 1024;

/** What a request was admitted with, kept on its context until its answer is written. */
export interface Admitted {
  clientKey: string;
  bucket: RateBucket;
  points: number;
}

const ADMITTED = Symbol('admitted weight');

/** Notes that the request was admitted at `points` of `bucket`: its answer settles against them. */
export function noteAdmitted(ctx: Context, admitted: Admitted): void {
  (ctx.state as Record<symbol, Admitted | undefined>)[ADMITTED] = admitted;
}

/**
 * The points a request costs beyond the `admitted` ones: a point buys BYTES_PER_POINT of answer and
 * `msPerPoint` shard-ms of Elasticsearch time together, so it pays for whichever it used more of.
 */
export function owedPoints(bytes: number, admitted: number, spent: { shardMs: number; msPerPoint: number } = { shardMs: 0, msPerPoint: 1 }): number {
  const used = Math.max(Math.ceil(bytes / BYTES_PER_POINT), Math.ceil(spent.shardMs / spent.msPerPoint));
  return Math.max(0, used - admitted);
}

/** The bytes of a written answer: a buffer or string; anything else (a stream, none) settles nothing. */
function answerBytes(body: unknown): number {
  if (Buffer.isBuffer(body)) return body.length;
  return typeof body === 'string' ? Buffer.byteLength(body) : 0;
}

/**
 * Settles each admitted request's answer and searches, without holding the answer for it. Placed outside the JSON writer (http/caching.ts),
 * so it reads the answer's identity bytes as written; an answer refused or not admitted (no note) settles
 * nothing. A search shared with other requests (a kept map answer, a prepared tool call) is paid by the
 * request that ran it.
 */
export function settleCost(limits: RateLimits, esMsPerPoint: number): Middleware {
  return async function settledCost(ctx: Context, next: Next): Promise<void> {
    const meter: EsTimeMeter = { shardMs: 0 };
    await metered(meter, next);
    const admitted = (ctx.state as Record<symbol, Admitted | undefined>)[ADMITTED];
    if (!admitted) return;
    const owed = owedPoints(answerBytes(ctx.body), admitted.points, { shardMs: meter.shardMs, msPerPoint: esMsPerPoint });
    // Counted after the answer is sent: the client's next request waits for it (./rate-limit.ts). A settlement
    // that neither the shared count nor this copy's memory could take is not counted.
    if (owed > 0) limits.settle(admitted.clientKey, admitted.bucket, owed).catch(() => undefined);
  };
}
