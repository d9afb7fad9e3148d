/**
 * The one error path of the HTTP side: anything thrown becomes the error object with
 * its status (docs/contract.md, "Errors"). Messages of unexpected errors are logged and never shown.
 */
import type { Context, Next } from 'koa';
import { ApiError, toApiError, unavailableStore } from '../../kernel/errors';
import type { Logger } from '../../kernel/logger';
import { failureLog } from '../failure-log';
import { traceIdOf } from './request-trace';
import { noteRequest } from '../../kernel/tracing';

/** Koa and its middleware throw http-errors (`status`, `expose`) for body limits and the like. */
function fromHttpError(err: unknown): ApiError | null {
  if (typeof err !== 'object' || err === null) return null;
  const { status, expose, message } = err as { status?: number; expose?: boolean; message?: string };
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (status === 413) return new ApiError('payload_too_large', 'The request body is too large.', 413);
  return new ApiError('invalid_parameters', expose && message ? message : 'Invalid request.', status);
}

/** `onStoreUnavailable`: told the store when a request fails because a store did not answer (metrics). */
export function errorMiddleware(log: Logger, onStoreUnavailable: (store: 'mongodb' | 'elasticsearch') => void = () => undefined) {
  const logFailure = failureLog(log);
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError('not_found', `No such endpoint: ${ctx.method} ${ctx.path}.`, 404);
      }
    } catch (err) {
      const apiError = err instanceof ApiError ? err : (fromHttpError(err) ?? toApiError(err));
      const store = unavailableStore(err);
      if (store) onStoreUnavailable(store);
      // The request's trace id, sampled or not (a request whose trace is not sampled runs under no span: ./request-trace.ts).
      logFailure(err, apiError, { path: ctx.path }, traceIdOf(ctx.req));
      noteRequest({ 'error.type': apiError.code });
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      ctx.body = apiError.toBody();
    }
  };
}
