/**
 * The tool server's span for one JSON-RPC message, as OpenTelemetry's MCP conventions name it
 * (`tools/call search_apartments_tool`, kind SERVER, `mcp.method.name`, `gen_ai.tool.name`,
 * `jsonrpc.request.id`): its parent is the trace context the client put in the request's
 * `params._meta` (`traceparent`, `tracestate`: SEP-414), linked then to the HTTP request's span;
 * without one, it is the HTTP request's child. The tool's work (Elasticsearch, MongoDB, pricing)
 * runs under it. Never an argument value: the tool's name, the era, the outcome and its code only.
 * Only what the server knows goes into a name or an attribute: a tool of the registry, a method of MCP
 * (`_OTHER` for any other, as OpenTelemetry names an unknown value), an id that is a number or a plain
 * token; a client can type anything in those fields, an email or a phone number too.
 * Only while tracing is on (docs/decisions.md, "Traces").
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link, type SpanContext, type TextMapGetter } from '@opentelemetry/api';
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
/** A JSON-RPC id a span may carry: a number, or a string of letters, digits, `_` and `-` (a UUID, a counter). */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The methods of MCP (both eras): any other is named `_OTHER`. */
const METHODS = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
]);

/**
 * Runs `serve` under the message's span when tracing is on; else just runs it. `unrecorded`: the HTTP
 * request's span context when that span is not recorded (its work runs under no context that would say so).
 */
export async function traceMessage<T>(
  body: unknown,
  protocolHeader: string,
  isTool: (name: string) => boolean,
  serve: () => Promise<T>,
  unrecorded?: SpanContext,
): Promise<T> {
  if (!tracingOn() || !isObject(body) || typeof body.method !== 'string') return serve();
  const method = METHODS.has(body.method) ? body.method : '_OTHER';
  const params = isObject(body.params) ? body.params : {};
  const tool = method === 'tools/call' && typeof params.name === 'string' && isTool(params.name) ? params.name : undefined;
  const meta = isObject(params._meta) ? params._meta : undefined;
  const ambient = context.active();
  // A context only when _meta holds a valid one (extracted alone first: over the ambient one, an invalid
  // traceparent would leave the HTTP request's span in place, and the message would link to its own parent).
  const carried = meta && typeof meta.traceparent === 'string' ? trace.getSpanContext(propagation.extract(ROOT_CONTEXT, meta, META)) : undefined;
  const fromMeta = carried ? propagation.extract(ambient, meta!, META) : undefined;
  const transportSpan = trace.getSpan(ambient);
  const transport = transportSpan?.spanContext() ?? unrecorded;
  const transportRecorded = transportSpan?.isRecording() === true;
  // The child of a request whose trace is not sampled is not sampled either (the parent-based samplers): no span to make.
  if (!carried && transport && !transportRecorded) return serve();
  const links: Link[] = carried && transport ? [{ context: transport }] : [];
  const id = body.id;
  // A 2025 client names its revision in `initialize` before any header can.
  const version = method === 'initialize' && typeof params.protocolVersion === 'string' ? params.protocolVersion : protocolHeader;
  const span = tracer.startSpan(
    tool ? `${method} ${tool}` : method,
    {
      kind: SpanKind.SERVER,
      links,
      attributes: {
        'mcp.method.name': method,
        ...(tool ? { 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' } : {}),
        ...((typeof id === 'string' && PLAIN_ID.test(id)) || (typeof id === 'number' && Number.isFinite(id)) ? { 'jsonrpc.request.id': String(id) } : {}),
        ...(VERSION.test(version) ? { 'mcp.protocol.version': version } : {}),
      },
    },
    fromMeta ?? ambient,
  );
  // A message span that is not recorded (`_meta` names a trace that is not sampled) under a request's that is not
  // either: the work runs under no context, as the request's would (../http/request-trace.ts).
  if (!span.isRecording() && !transportRecorded) {
    span.end();
    return serve();
  }
  // The message's span joins the request's: what the work notes (era, outcome, cache, homes priced) is said on both.
  const record = requestTrace() ?? new RequestTrace(span);
  const scope = requestContext(span, fromMeta ?? ambient, record);
  try {
    return await context.with(scope, serve);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    // A JSON-RPC error or a tool's error answer (its code noted as `error.type`) fails the message, as MCP's conventions say.
    if (record.noted.has('error.type')) span.setStatus({ code: SpanStatusCode.ERROR });
    record.finish(span);
  }
}
