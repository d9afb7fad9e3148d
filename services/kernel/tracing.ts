/**
 * The service's own spans (OpenTelemetry API only; the SDK is started by ./tracing-sdk.ts when an
 * OTLP endpoint is configured). While tracing is off every helper here is one boolean test and a
 * plain call: no span, no context, no attribute is built (docs/decisions.md, "Traces").
 *
 * What a span may carry: route templates, tool names, slugs, dates, counts, codes. Never an
 * argument value otherwise, a query text, a header or anything a guest typed.
 */
import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Span,
} from '@opentelemetry/api';

let on = false;

/** Whether spans are recorded in this process (set once the SDK has started). */
export function tracingOn(): boolean {
  return on;
}

/** The service's tracer: that of the provider registered when tracing last started. */
export let tracer = trace.getTracer('furnished-catalog');

/** Told by ./tracing-sdk.ts when the SDK starts and when it stops. */
export function setTracingOn(value: boolean): void {
  on = value;
  // A tracer asked for anew: the API's tracer keeps the first provider it reached, even once that one is shut down
  // (a start after a stop in the same process would otherwise export nothing of the service's own spans).
  if (value) tracer = trace.getTracer('furnished-catalog');
}

/**
 * One request's spans that carry its outcome (the HTTP request's, and the tool server's message's
 * when there is one), and what its work adds up to while it runs (homes priced).
 */
export class RequestTrace {
  homesPriced = 0;
  readonly spans: Span[] = [];
  /** The attribute keys noted so far (the request's span fills in what nothing noted). */
  readonly noted = new Set<string>();
  constructor(first: Span) {
    this.spans.push(first);
  }

  /** Sets attributes on every span of the request that carries its outcome. */
  note(attributes: Attributes): void {
    for (const key of Object.keys(attributes)) this.noted.add(key);
    for (const span of this.spans) span.setAttributes(attributes);
  }

  /** Ends a span of this request with its homes priced, and `catalog.cache` `none` when no kept answer was asked for it. */
  finish(span: Span): void {
    if (this.homesPriced > 0) span.setAttribute('catalog.homes_priced', this.homesPriced);
    if (!this.noted.has('catalog.cache')) span.setAttribute('catalog.cache', 'none');
    span.end();
  }
}

const REQUEST = createContextKey('catalog request trace');

/** The trace of the request being served, or undefined (tracing off, or outside a request). */
export function requestTrace(): RequestTrace | undefined {
  return on ? (context.active().getValue(REQUEST) as RequestTrace | undefined) : undefined;
}

/** The active context with `span` active and the request's trace (a new one, or `trace` with `span` added). */
export function requestContext(span: Span, parent = context.active(), record: RequestTrace = new RequestTrace(span)): ReturnType<typeof context.active> {
  if (record.spans[0] !== span && !record.spans.includes(span)) record.spans.push(span);
  return trace.setSpan(parent, span).setValue(REQUEST, record);
}

/** Sets attributes on the request's outcome spans; nothing when tracing is off. */
export function noteRequest(attributes: Attributes): void {
  requestTrace()?.note(attributes);
}

/** Adds homes priced to the request being served (its spans say the total when they end). */
export function notePriced(homes: number): void {
  const record = requestTrace();
  if (record) record.homesPriced += homes;
}

/**
 * A synchronous pricing pass (`homes`: the homes it prices, or read from its outcome), timed as a child
 * span `pricing` with the homes it priced; the engine it calls stays pure (the span is made here, at the
 * call site, never inside the kernel's engine).
 */
export function pricingSpan<T>(homes: number | ((out: T) => number), fn: () => T, opts: { counted?: boolean } = {}): T {
  if (!on) return fn();
  // Under a trace that is not sampled, only the count matters.
  if (!trace.getActiveSpan()?.isRecording()) {
    const out = fn();
    if (opts.counted !== false) notePriced(typeof homes === 'number' ? homes : homes(out));
    return out;
  }
  const span = tracer.startSpan('pricing', { kind: SpanKind.INTERNAL });
  try {
    const out = context.with(trace.setSpan(context.active(), span), fn);
    const n = typeof homes === 'number' ? homes : homes(out);
    span.setAttribute('catalog.homes_priced', n);
    // A search's price book counts each home once itself (notePriced): its passes are timed here, not counted again.
    if (opts.counted !== false) notePriced(n);
    return out;
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

/** The active trace's id (for a log line or an exemplar), or undefined. */
export function activeTraceId(): string | undefined {
  if (!on) return undefined;
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId } = span.spanContext();
  return traceId === '00000000000000000000000000000000' ? undefined : traceId;
}

/**
 * The trace id a request's own line names (a failure line): its request's (`requestTraceId`, sampled or not)
 * unless a recorded span is active, whose trace the logger's mixin names (a tool call under its `_meta` trace).
 */
export function lineTraceId(requestTraceId: string | undefined): string | undefined {
  return requestTraceId === undefined || (on && trace.getActiveSpan()?.isRecording()) ? undefined : requestTraceId;
}

/** A span's W3C trace context as a record keeps it (`traceparent`, and `tracestate` when there is one). */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** The active span's trace context to keep beside a record it wrote (an inventory change), or undefined. */
export function traceCarrier(): TraceCarrier | undefined {
  if (!on || !trace.getActiveSpan()) return undefined;
  const carrier: Partial<TraceCarrier> = {};
  propagation.inject(context.active(), carrier);
  return typeof carrier.traceparent === 'string' ? (carrier as TraceCarrier) : undefined;
}

/** Links to the spans whose trace contexts some records kept (the changes an indexer run applies). */
export function linksOf(carriers: ReadonlyArray<TraceCarrier | undefined>): Link[] {
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const carrier of carriers) {
    if (!carrier) continue;
    const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
    if (!spanContext || seen.has(spanContext.spanId)) continue;
    seen.add(spanContext.spanId);
    links.push({ context: spanContext });
  }
  return links;
}

/**
 * A batch job's run (an indexer run, an import) as a trace of its own (a root span, whatever is active),
 * linked to the spans in `links`; nothing but `work()` while tracing is off.
 */
export async function runSpan<T>(name: string, attributes: Attributes, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!on) return work(undefined);
  const span = tracer.startSpan(name, { root: true, kind: SpanKind.INTERNAL, attributes });
  try {
    return await context.with(trace.setSpan(ROOT_CONTEXT, span), () => work(span));
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute('error.type', (err as Error)?.name ?? 'Error');
    throw err;
  } finally {
    span.end();
  }
}
