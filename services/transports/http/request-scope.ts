/**
 * Every request to the public API or the tool server is bounded as a whole:
 * - admitted only while the work in flight on this copy, in request weights (a read 1, a viewport
 *   search 4), stays within `maxInFlight`; else shed at once with 503 and Retry-After (a queue would
 *   only make every answer late);
 * - answered within `deadlineMs`: past it the client gets 503 with the error object and Retry-After,
 *   and the request's signal aborts, so the work under it (Elasticsearch calls, pricing, relaxation
 *   steps) stops instead of running on for nobody;
 * - stopped the same way when its client goes away before the answer.
 * The client's address is read here, once (./client-address.ts), and handed down in the scope.
 */
import type { Context, Next } from 'koa';
import { ApiError, RequestAborted } from '../../kernel/errors';
import type { RequestScope, RequestTransport } from '../../tools/tool';
import { clientAddress, clientKeyOf, type TrustPolicy } from '../client-address';

export interface RequestBounds {
  trust: TrustPolicy;
  deadlineMs: number;
  /** Units of work one copy runs at once (MAX_IN_FLIGHT). */
  maxInFlight: number;
  /** Told when a request is shed, timed out or abandoned by its client (metrics). */
  onBounded?: (outcome: 'shed' | 'deadline' | 'client_gone') => void;
}

/** The admission of a bounded request: set by the middleware below. */
export function admissionOf(ctx: Context): Admission {
  const admission = ctx.state.admission as Admission | undefined;
  if (!admission) throw new Error(`no admission on ${ctx.path}: the bounds middleware must run first`);
  return admission;
}

/** The scope a handler reads: set by the middleware below on every bounded request. */
export function scopeOf(ctx: Context, transport: RequestTransport): RequestScope {
  const scope = ctx.state.scope as RequestScope | undefined;
  if (!scope) throw new Error(`no request scope on ${ctx.path}: the bounds middleware must run first`);
  return { ...scope, transport };
}

const RETRY_SOON = { 'Retry-After': '1' };

function deadlineError(deadlineMs: number): ApiError {
  return new ApiError('service_unavailable', `The request did not finish within ${deadlineMs / 1000} s; try again shortly.`, 503, RETRY_SOON);
}

function atCapacity(): ApiError {
  return new ApiError('service_unavailable', 'The service is at capacity; try again shortly.', 503, RETRY_SOON);
}

/**
 * This middleware runs first (a shed request costs the copy as little as it can: no log line, no
 * other middleware), so it answers its own refusals: the error object, Retry-After, readable by any
 * origin, never cached.
 */
function answer(ctx: Context, err: ApiError): void {
  ctx.status = err.status;
  ctx.set(err.headers);
  ctx.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  ctx.body = err.toBody();
}

/**
 * A request's share of the copy while it runs, in the same units as its rate-limit weight (an
 * apartment read is 1, a viewport search 4): what it takes is what it holds. A request whose weight is
 * known only once its body is read (a tool-server message) is admitted at 1 and grows then.
 */
export interface Admission {
  /** Takes `units` more for this request, or throws the 503 when the copy cannot give them. */
  grow(units: number): void;
}

/**
 * `bounded(path)`: whether a path is bounded (the public API and the tool server; not health or
 * photos); `weightOf(ctx)`: the units a request takes at admission.
 */
export function requestBounds(bounds: RequestBounds, bounded: (path: string) => boolean, weightOf: (ctx: Context) => number = () => 1) {
  let inFlight = 0;
  return async function boundRequest(ctx: Context, next: Next): Promise<void> {
    ctx.request.ip = clientAddress(ctx.req, bounds.trust);
    if (!bounded(ctx.path)) return next();
    let held = weightOf(ctx);
    // One request is always admitted on an idle copy, however heavy (a bound below its weight would refuse it for ever).
    if (inFlight > 0 && inFlight + held > bounds.maxInFlight) {
      bounds.onBounded?.('shed');
      return answer(ctx, atCapacity());
    }
    inFlight += held;
    const admission: Admission = {
      grow(units) {
        if (units <= 0) return;
        if (inFlight + units > bounds.maxInFlight && inFlight > held) {
          bounds.onBounded?.('shed');
          throw atCapacity();
        }
        inFlight += units;
        held += units;
      },
    };
    ctx.state.admission = admission;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new RequestAborted('deadline')), bounds.deadlineMs);
    const gone = (): void => {
      if (!ctx.res.writableFinished) controller.abort(new RequestAborted('client_gone'));
    };
    ctx.res.once('close', gone);
    const scope: RequestScope = { clientKey: clientKeyOf(ctx.ip), transport: 'http', signal: controller.signal };
    ctx.state.scope = scope;
    const work = next();
    let stop: (() => void) | undefined;
    const aborted = new Promise<void>((resolve) => {
      stop = resolve;
      // Only a real abort ends the wait: an `abort` event dispatched on a signal that did not abort (as
      // the Elasticsearch client once did for its own timeouts) would otherwise answer before the work did.
      controller.signal.addEventListener('abort', () => {
        if (controller.signal.aborted) resolve();
      });
    });
    try {
      await Promise.race([work, aborted]);
      if (controller.signal.aborted) {
        // The work goes on only until it next looks at the signal; its outcome is nobody's now.
        work.catch(() => undefined);
        const reason = (controller.signal.reason as RequestAborted).reason;
        bounds.onBounded?.(reason);
        if (reason === 'client_gone') ctx.respond = false;
        answer(ctx, deadlineError(bounds.deadlineMs));
      }
    } finally {
      stop?.();
      clearTimeout(timer);
      inFlight -= held;
      ctx.res.off('close', gone);
    }
  };
}
