/**
 * The outermost middleware: a request id (X-Request-Id accepted when it looks like one, else a new
 * UUID; echoed on the answer), one access-log line per request through pino-http, and the request
 * duration histogram. Both carry the method, the route template (never the raw URL: a path or a
 * query can name a home, a place or a person), the status and the duration; never a header, a body
 * or a stack.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Context, Next } from 'koa';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../../kernel/logger';
import type { ServiceMetrics } from '../../kernel/metrics';
import { sampledTraceIdOf, traceIdOf } from './request-trace';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** What a request that matched no route is labelled (a 404 of any path, or a refused method). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The route template a request matched, set when the chain returns (read by the log line at finish). */
const routes = new WeakMap<IncomingMessage, string>();

/**
 * The template of the route that answered: the router's, or the one a middleware inside the router
 * named before it refused the request (`ctx.state.routeTemplate`: the rate limit of app.ts; the
 * router then only knows its own `use` layer, a pattern, not a route).
 */
function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  const named = (ctx.state as { routeTemplate?: unknown }).routeTemplate;
  if (typeof matched === 'string' && !matched.includes('(?:')) return matched;
  return typeof named === 'string' ? named : UNMATCHED_ROUTE;
}

function withTraceId(req: IncomingMessage, line: Record<string, unknown>): Record<string, unknown> {
  const traceId = traceIdOf(req);
  return traceId === undefined ? line : { ...line, trace_id: traceId };
}

export function requestLog(log: Logger, metrics: ServiceMetrics) {
  const http = pinoHttp({
    logger: log,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({ id: req.id, method: req.method }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // Called at the start too (nothing known yet: no binding, or the line would carry `route` twice).
    customProps: (req) => {
      const route = routes.get(req);
      return route === undefined ? {} : { route };
    },
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request failed',
    // With tracing on, the request's trace id (`trace_id`, as every other line of the request carries it:
    // ../../kernel/logger.ts). In the line's own fields, where the logger's mixin merges into the same key:
    // as a binding it would be written a second time beside the mixin's, and a log store refuses a line
    // with a key twice.
    customSuccessObject: (req, _res, line: Record<string, unknown>) => withTraceId(req, line),
    // A 5xx access line names its status only: pino-http would add an error of its own making, with a
    // stack that says nothing (the cause, when it is a fault, is logged once by ../failure-log.ts).
    customErrorObject: (req, _res, _err, line: Record<string, unknown>) => {
      const { err: _made, ...rest } = line;
      return withTraceId(req, rest);
    },
    quietReqLogger: true,
  });
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const t0 = performance.now();
    http(ctx.req, ctx.res);
    try {
      await next();
    } finally {
      const route = routeOf(ctx);
      routes.set(ctx.req, route);
      const method = METHODS.has(ctx.method) ? ctx.method : 'other';
      const labels = { method, route, status: String(ctx.status) };
      const seconds = (performance.now() - t0) / 1000;
      if (!metrics.exemplars) metrics.httpDuration.observe(labels, seconds);
      else {
        // A sampled request's trace id is its bucket's exemplar (an unsampled one leads to no trace).
        const sampled = sampledTraceIdOf(ctx.req);
        // prom-client types exemplar labels as the metric's own label names; an exemplar's are its own (trace_id).
        const exemplarLabels = (sampled === undefined ? {} : { trace_id: sampled }) as Partial<Record<keyof typeof labels, string>>;
        metrics.httpDuration.observe({ labels, value: seconds, exemplarLabels });
      }
    }
  };
}
