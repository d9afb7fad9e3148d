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
import { traceIdOf } from './request-trace';

export interface RequestBounds {
  trust: TrustPolicy;
  deadlineMs: number;
  /** Units of work one copy runs at once (MAX_IN_FLIGHT). */
  maxInFlight: number;
  /** Units one client (its rate-limit key) may hold at once (MAX_IN_FLIGHT_PER_CLIENT); default: the whole bound. */
  maxPerClient?: number;
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
  return { ...scope, transport, traceId: traceIdOf(ctx.req) };
}

const RETRY_SOON = { 'Retry-After': '1' };

function deadlineError(deadlineMs: number): ApiError {
  return new ApiError('service_unavailable', `The request did not finish within ${deadlineMs / 1000} s; try again shortly.`, 503, RETRY_SOON);
}

function atCapacity(): ApiError {
  return new ApiError('service_unavailable', 'The service is at capacity; try again shortly.', 503, RETRY_SOON);
}

function tooManyAtOnce(): ApiError {
  return new ApiError('rate_limited', 'Too many requests of this client at once; retry when one has been answered.', 429, RETRY_SOON);
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
  /** Takes `units` more for this request, or throws the 503 (the copy) or 429 (this client) when they cannot be had; nothing once the request is over. */
  grow(units: number): void;
}

/**
 * `bounded(path)`: whether a path is bounded (the public API, the tool server, the page, its files and
 * photos; not health); `weightOf(ctx)`: the units a request takes at admission.
 */
export function requestBounds(bounds: RequestBounds, bounded: (path: string) => boolean, weightOf: (ctx: Context) => number = () => 1) {
  let inFlight = 0;
  /** Units held by each client key: one client may hold `maxPerClient` of the copy at most. */
  const byClient = new Map<string, number>();
  const maxPerClient = bounds.maxPerClient ?? bounds.maxInFlight;
  return async function boundRequest(ctx: Context, next: Next): Promise<void> {
    ctx.request.ip = clientAddress(ctx.req, bounds.trust);
    if (!bounded(ctx.path)) return next();
    const clientKey = clientKeyOf(ctx.ip);
    const mine = (): number => byClient.get(clientKey) ?? 0;
    let held = 0;
    /** Why `units` more cannot be had now, or null. One request is always admitted on an idle copy, however heavy. */
    const refusalOf = (units: number): ApiError | null => {
      if (inFlight > held && inFlight + units > bounds.maxInFlight) return atCapacity();
      if (mine() > held && mine() + units > maxPerClient) return tooManyAtOnce();
      return null;
    };
    const take = (units: number): void => {
      inFlight += units;
      held += units;
      byClient.set(clientKey, mine() + units);
    };
    const first = weightOf(ctx);
    const refused = refusalOf(first);
    if (refused) {
      bounds.onBounded?.('shed');
      return answer(ctx, refused);
    }
    take(first);
    const controller = new AbortController();
    let released = false;
    const admission: Admission = {
      grow(units) {
        // A request whose deadline passed (or whose client left) holds nothing any more: it may not take more.
        if (released) throw new RequestAborted('deadline');
        controller.signal.throwIfAborted();
        if (units <= 0) return;
        const refusal = refusalOf(units);
        if (refusal) {
          bounds.onBounded?.('shed');
          throw refusal;
        }
        take(units);
      },
    };
    ctx.state.admission = admission;
    const timer = setTimeout(() => controller.abort(new RequestAborted('deadline')), bounds.deadlineMs);
    const gone = (): void => {
      if (!ctx.res.writableFinished) controller.abort(new RequestAborted('client_gone'));
    };
    ctx.res.once('close', gone);
    const scope: RequestScope = { clientKey, transport: 'http', signal: controller.signal };
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
        // The connection closes after this answer: a body still arriving (a slow upload) ends with it.
        ctx.set('Connection', 'close');
      }
    } finally {
      released = true;
      stop?.();
      clearTimeout(timer);
      inFlight -= held;
      const left = mine() - held;
      if (left > 0) byClient.set(clientKey, left);
      else byClient.delete(clientKey);
      ctx.res.off('close', gone);
    }
  };
}
