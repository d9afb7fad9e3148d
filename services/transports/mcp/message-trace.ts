/**
 * The tool server's span for one JSON-RPC message, as OpenTelemetry's MCP conventions name it
 * (`tools/call search_apartments_tool`, kind SERVER, `mcp.method.name`, `gen_ai.tool.name`,
 * `jsonrpc.request.id`): its parent is the trace context the client put in the request's
 * `params._meta` (`traceparent`, `tracestate`: SEP-414), linked then to the HTTP request's span;
 * without one, it is the HTTP request's child. The tool's work (Elasticsearch, MongoDB, pricing)
 * runs under it. Never an argument value: the tool's name, the era, the outcome and its code only.
 * Only while tracing is on (docs/decisions.md, "Traces").
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Link, type TextMapGetter } from '@opentelemetry/api';
import { requestContext, RequestTrace, requestTrace, tracer, tracingOn } from '../../kernel/tracing';
import { isObject } from './plain-request';

/** `_meta` as the propagators read it: its string values only. */
const META: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

const VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** Runs `serve` under the message's span when tracing is on; else just runs it. */
export async function traceMessage<T>(body: unknown, protocolHeader: string, serve: () => Promise<T>): Promise<T> {
  if (!tracingOn() || !isObject(body) || typeof body.method !== 'string') return serve();
  const method = body.method;
  const params = isObject(body.params) ? body.params : {};
  const tool = method === 'tools/call' && typeof params.name === 'string' ? params.name : undefined;
  const meta = isObject(params._meta) ? params._meta : undefined;
  const ambient = context.active();
  const fromMeta = meta && typeof meta.traceparent === 'string' ? propagation.extract(ambient, meta, META) : undefined;
  const carried = fromMeta ? trace.getSpanContext(fromMeta) : undefined;
  const transportSpan = trace.getSpan(ambient);
  // The child of a request whose trace is not sampled is not sampled either (the parent-based samplers): no span to make.
  if (!carried && transportSpan && !transportSpan.isRecording()) return serve();
  const links: Link[] = carried && transportSpan ? [{ context: transportSpan.spanContext() }] : [];
  const id = body.id;
  const span = tracer.startSpan(
    tool ? `${method} ${tool}` : method,
    {
      kind: SpanKind.SERVER,
      links,
      attributes: {
        'mcp.method.name': method,
        ...(tool ? { 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' } : {}),
        ...(typeof id === 'string' || typeof id === 'number' ? { 'jsonrpc.request.id': String(id) } : {}),
        ...(VERSION.test(protocolHeader) ? { 'mcp.protocol.version': protocolHeader } : {}),
      },
    },
    carried ? fromMeta : ambient,
  );
  // The message's span joins the request's: what the work notes (era, outcome, cache, homes priced) is said on both.
  const record = requestTrace() ?? new RequestTrace(span);
  const scope = requestContext(span, carried ? fromMeta : ambient, record);
  try {
    return await context.with(scope, serve);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    record.finish(span);
  }
}
