/**
 * One server span per request, made here rather than by @opentelemetry/instrumentation-http and
 * -koa (docs/decisions.md, "Traces": they cost several times more per request, the Koa one a span per
 * middleware, and neither hooks a Koa loaded through the ESM loader). Mounted only when the copy
 * starts with tracing on: a copy without an OTLP endpoint runs none of this; in a process whose SDK
 * stops later (an embedding process, the traces bench switching it), a request passes through.
 *
 * The parent comes from the request's `traceparent`/`tracestate` (the propagators the SDK set up,
 * W3C Trace Context by default). The span is named by the route template as the router matched it
 * (`GET /api/public/search`), never the raw path or query (they can name a place or a person), and
 * carries the status, the error code of an error answer and what the request's work noted (cache
 * outcome, homes priced: ../../kernel/tracing.ts).
 */
import type { IncomingMessage } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, ROOT_CONTEXT, TraceFlags, type SpanContext, type TextMapGetter } from '@opentelemetry/api';
import type { Context, Next } from 'koa';
import { requestContext, RequestTrace, tracer, tracingOn } from '../../kernel/tracing';

/** Headers as the propagators read them (Node lower-cases their names). */
const HEADERS: TextMapGetter<IncomingMessage['headers']> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/**
 * The context of each request's span, kept on the request for its access-log line, its exemplar (both
 * written after the span's work is done), its failure lines and the tool server's message span (for a
 * request whose span is not recorded, no context is entered to find it by): a property, not a WeakMap
 * entry per request.
 */
const TRACE = Symbol('catalog request trace');
type Traced = IncomingMessage & { [TRACE]?: { span: SpanContext; recorded: boolean } };

export function traceIdOf(req: IncomingMessage): string | undefined {
  return (req as Traced)[TRACE]?.span.traceId;
}

/** The request's trace id when its trace is sampled (exported), else undefined. */
export function sampledTraceIdOf(req: IncomingMessage): string | undefined {
  const t = (req as Traced)[TRACE]?.span;
  return t && (t.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? t.traceId : undefined;
}

/**
 * The context of the request's span when the span is not recorded (its trace not sampled), else undefined:
 * the work of such a request runs under no span of its own, and a tool call's message span learns here
 * that its request's trace is not sampled.
 */
export function unrecordedTraceOf(req: IncomingMessage): SpanContext | undefined {
  const t = (req as Traced)[TRACE];
  return t && !t.recorded ? t.span : undefined;
}

/** The route template the router matched, or the one a refusing middleware named (./request-log.ts reads the same). */
function templateOf(ctx: Context): string | undefined {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string' && !matched.includes('(?:')) return matched;
  const named = (ctx.state as { routeTemplate?: unknown }).routeTemplate;
  return typeof named === 'string' ? named : undefined;
}

/**
 * `knownRoute`: the route template of a path that names one exactly (a route without parameters: the
 * searches, the tool server), for a request refused before the router ran (shed by the bounds).
 */
export function requestTrace(knownRoute: (path: string) => string | undefined = () => undefined) {
  return async function traceRequest(ctx: Context, next: Next): Promise<void> {
    if (!tracingOn()) return next();
    const parent = propagation.extract(ROOT_CONTEXT, ctx.req.headers, HEADERS);
    const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method } }, parent);
    const recorded = span.isRecording();
    (ctx.req as Traced)[TRACE] = { span: span.spanContext(), recorded };
    // A span that is not recorded (its trace not sampled) keeps nothing, and its work runs under no context of
    // its own: entering one cost a served read about as much as its sampled tenth of traces (docs/decisions.md,
    // "Traces"). Its store calls and pricing see no active span and make none; the tool server's message span
    // reads the request's (unrecordedTraceOf). Ended at once: a span that is not recorded has no time to keep.
    if (!recorded) {
      span.end();
      return next();
    }
    const record = new RequestTrace(span);
    try {
      await context.with(requestContext(span, parent, record), next);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      const route = templateOf(ctx) ?? knownRoute(ctx.path);
      if (route !== undefined) {
        span.setAttribute('http.route', route);
        span.updateName(`${ctx.method} ${route}`);
      }
      span.setAttribute('http.response.status_code', ctx.status);
      // The error middleware notes an error answer's code; a refusal before it (shed, deadline) is named by its status.
      if (ctx.status >= 400 && !record.noted.has('error.type')) span.setAttribute('error.type', String(ctx.status));
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      record.finish(span);
    }
  };
}
