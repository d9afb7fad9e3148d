/**
 * How both transports log a request that failed. A fault (a 5xx nobody expected) is an error with its
 * stack. A known state is not: a request its own deadline or client ended is a debug line, and a search
 * before the first index exists (a first start, the build still running) is one warning a minute, not a
 * stack trace per request.
 */
import type { ApiError } from '../kernel/errors';
import { expectedOutage } from '../kernel/errors';
import type { Logger } from '../kernel/logger';

const INDEX_MISSING_WARNING_EVERY_MS = 60_000;

export type FailureLog = (err: unknown, answered: ApiError, where: Record<string, string>) => void;

export function failureLog(log: Logger, now: () => number = Date.now): FailureLog {
  let warnedAt = -Infinity;
  return (err, answered, where) => {
    if (answered.status < 500) return;
    const expected = expectedOutage(err);
    if (expected === 'request_over') {
      log.debug({ ...where }, 'request ended by its deadline or its client');
    } else if (expected === 'index_missing') {
      const t = now();
      if (t - warnedAt < INDEX_MISSING_WARNING_EVERY_MS) return;
      warnedAt = t;
      log.warn({ ...where }, 'no search index yet (the first build is running?): searches answer 503 with Retry-After until it exists');
    } else {
      log.error({ err, ...where }, 'request failed');
    }
  };
}
