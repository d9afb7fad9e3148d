/**
 * How both transports log a request that failed. A fault (a 5xx nobody expected) is an error with its
 * stack. A known state is not: a request its own deadline or client ended is a debug line; a search
 * before the first index exists (a first start, the build still running), one asking a field an index
 * of an earlier mapping lacks (the rebuild for this version not done yet), and a 503 the service
 * answers on purpose (not ready, at capacity) are one warning a minute each, with no stack, not a stack
 * trace per request.
 */
import { ApiError, expectedOutage } from '../kernel/errors';
import type { Logger } from '../kernel/logger';
import { lineTraceId } from '../kernel/tracing';

const WARNING_EVERY_MS = 60_000;

/**
 * `requestTraceId`: the request's trace id, sampled or not; a line written names it unless a recorded span is
 * active, whose trace the logger's mixin names (lineTraceId).
 */
export type FailureLog = (err: unknown, answered: ApiError, where: Record<string, string>, requestTraceId?: string) => void;

const INDEX_MISSING = 'no search index yet (the first build is running?): searches answer 503 with Retry-After until it exists';
const INDEX_OUTDATED =
  'the search index was built from an earlier mapping (a full rebuild not yet run or still running): searches that need the newer fields answer 503 with Retry-After until it swaps the alias';

/** The warning a known state logs (at most once a minute), or null for a fault. */
function knownState(err: unknown): string | null {
  const expected = expectedOutage(err);
  if (expected === 'index_missing') return INDEX_MISSING;
  if (expected === 'index_outdated') return INDEX_OUTDATED;
  // The service's own 503 (its message says why and when to retry); a store that failed is no ApiError.
  if (err instanceof ApiError && err.status === 503) return err.message;
  return null;
}

export function failureLog(log: Logger, now: () => number = Date.now): FailureLog {
  /** When each kind of known state last warned: by its message, the first words of it for the service's own 503s. */
  const warnedAt = new Map<string, number>();
  return (err, answered, at, requestTraceId) => {
    if (answered.status < 500) return;
    const traceId = lineTraceId(requestTraceId);
    const where = traceId === undefined ? at : { ...at, trace_id: traceId };
    if (expectedOutage(err) === 'request_over') {
      log.debug({ ...where }, 'request ended by its deadline or its client');
      return;
    }
    const state = knownState(err);
    if (state === null) {
      log.error({ err, ...where }, 'request failed');
      return;
    }
    const kind = state.split(':')[0];
    const t = now();
    if (t - (warnedAt.get(kind) ?? -Infinity) < WARNING_EVERY_MS) return;
    warnedAt.set(kind, t);
    log.warn({ ...where, status: answered.status }, state);
  };
}
