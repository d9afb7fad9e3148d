import { errors as esErrors } from '@elastic/elasticsearch';
import { MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoTopologyClosedError } from 'mongodb';

/**
 * The one typed error every handler throws. Each transport renders it: the GET API as
 * `{ "error": { "code", "message" } }` with `status`, the tool server as an `isError` result
 * carrying the same object (docs/contract.md, "Errors").
 */

export type ErrorCode =
  | 'invalid_parameters'
  | 'unknown_parameter'
  | 'invalid_date'
  | 'home_not_found'
  | 'market_not_found'
  | 'tier_not_offered'
  | 'search_too_broad'
  | 'no_home_resolved'
  | 'consent_required'
  | 'consent_declined'
  | 'not_found'
  | 'watch_not_found'
  | 'too_many_watches'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'misdirected_request'
  | 'rate_limited'
  | 'service_unavailable'
  | 'internal_error';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly status: number = 400,
    readonly headers: Record<string, string> = {},
  ) {
    // An answer the client caused (a 4xx) carries no stack: capturing one cost more than the rest of a 404.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

export interface ErrorBody {
  error: { code: string; message: string };
}

export const badRequest = (code: ErrorCode, message: string): ApiError => new ApiError(code, message, 400);
export const notFound = (code: ErrorCode, message: string): ApiError => new ApiError(code, message, 404);

/**
 * Maps anything thrown to an ApiError. Unknown errors become a 503 when a store is unreachable
 * and a 500 otherwise, with a generic message: internal details are logged, never shown.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const expected = expectedOutage(err);
  if (expected === 'request_over') {
    return new ApiError('service_unavailable', 'The request did not finish in time; try again shortly.', 503, { 'Retry-After': '1' });
  }
  if (expected === 'index_missing') {
    return new ApiError('service_unavailable', 'The search index is being built; try again shortly.', 503, { 'Retry-After': '10' });
  }
  if (expected === 'index_outdated') {
    return new ApiError('service_unavailable', 'The search index is being rebuilt for this version of the service; try again shortly.', 503, {
      'Retry-After': '10',
    });
  }
  if (unavailableStore(err)) {
    return new ApiError('service_unavailable', 'A backing store is unavailable; try again shortly.', 503, {
      'Retry-After': '5',
    });
  }
  return new ApiError('internal_error', 'Internal error.', 500);
}

/** Why a request's signal aborted: its deadline passed, or its client went away (transports/http/request-scope.ts). */
export class RequestAborted extends Error {
  constructor(readonly reason: 'deadline' | 'client_gone') {
    super(reason === 'deadline' ? 'request deadline passed' : 'client went away');
    this.name = 'RequestAborted';
  }
}

/**
 * A failure that is a known state rather than a fault, answered 503 without a stack trace in the log:
 * the request's own deadline or client ended it (its Elasticsearch call was cancelled with it), no
 * search index exists yet (the first build after a first start is still running), or the alias's index
 * was built from an earlier mapping and lacks a nested field this version asks (a new version serving
 * before the full rebuild that brings the field has swapped the alias).
 */
export function expectedOutage(err: unknown): 'request_over' | 'index_missing' | 'index_outdated' | null {
  if (err instanceof RequestAborted || err instanceof esErrors.RequestAbortedError) return 'request_over';
  if (err instanceof esErrors.ResponseError && /index_not_found_exception/.test(err.message)) return 'index_missing';
  if (err instanceof esErrors.ResponseError && /failed to find nested object under path/.test(err.message)) return 'index_outdated';
  return null;
}

/**
 * The store that did not answer (in time): unreachable, hung, or its connection pool was reset; null
 * when the failure is not a store's.
 */
export function unavailableStore(err: unknown): 'mongodb' | 'elasticsearch' | null {
  // The MongoDB driver (6.22) lets a write on a connection the server has closed (a restart) escape as
  // Node's own EPIPE, not a MongoNetworkError; the Elasticsearch client wraps all of its socket errors.
  // (Read by its code: Node's internal errors are not `instanceof Error` inside a test's sandbox.)
  if (typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EPIPE') return 'mongodb';
  if (!(err instanceof Error)) return null;
  // MongoNetworkError covers socket timeouts and a pool cleared after one.
  if (
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err instanceof MongoNotConnectedError ||
    err instanceof MongoTopologyClosedError
  ) {
    return 'mongodb';
  }
  if (err instanceof esErrors.TimeoutError || err instanceof esErrors.ConnectionError || err instanceof esErrors.NoLivingConnectionsError) {
    return 'elasticsearch';
  }
  if (clusterFailure(err)) return 'elasticsearch';
  // A search before the first index build (the alias does not exist yet).
  return err instanceof esErrors.ResponseError && /index_not_found_exception/.test(err.message) ? 'elasticsearch' : null;
}

/**
 * Elasticsearch answered, but with a 5xx: the cluster could not serve the search (a shard's node not
 * connected while a master is elected, no shard copy available). A malformed request is a 4xx.
 */
export function clusterFailure(err: unknown): boolean {
  return err instanceof esErrors.ResponseError && (err.statusCode ?? 0) >= 500;
}
