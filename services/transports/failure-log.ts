/**
 * How both transports log a request that failed. A fault (a 5xx nobody expected) is an error with its
 * stack. A known state is not: a request its own deadline or client ended is a debug line, and a search
 * before the first index exists (a first start, the build still running), or one asking a field an index
 * of an earlier mapping lacks (the rebuild for this version not done yet), is one warning a minute, not a
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
    } else if (expected === 'index_missing' || expected === 'index_outdated') {
      const t = now();
      if (t - warnedAt < INDEX_MISSING_WARNING_EVERY_MS) return;
      warnedAt = t;
      log.warn(
        { ...where },
        expected === 'index_missing'
          ? 'no search index yet (the first build is running?): searches answer 503 with Retry-After until it exists'
          : 'the search index was built from an earlier mapping (a full rebuild not yet run or still running): searches that need the newer fields answer 503 with Retry-After until it swaps the alias',
      );
    } else {
      log.error({ err, ...where }, 'request failed');
    }
  };
}
