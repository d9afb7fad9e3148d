/**
 * A request whose trace is not sampled runs under no span of its own (nothing in its work can make a span
 * or notice one), yet keeps its trace id for its access line and its failure lines, and a tool call in it
 * whose `_meta` names a sampled trace is still exported, linked to the request's span.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { context, propagation, trace, type Span } from '@opentelemetry/api';
import { AlwaysOnSampler, InMemorySpanExporter, ParentBasedSampler, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { setTracingOn } from '../../../services/kernel/tracing';
import { createLogger } from '../../../services/kernel/logger';
import { requestTrace, sampledTraceIdOf, traceIdOf, unrecordedTraceOf } from '../../../services/transports/http/request-trace';
import { errorMiddleware } from '../../../services/transports/http/errors';
import { scopeOf } from '../../../services/transports/http/request-scope';
import { traceMessage } from '../../../services/transports/mcp/message-trace';
import { errorResult } from '../../../services/transports/mcp/tool-call';
import type { Deps } from '../../../services/deps';

const exporter = new InMemorySpanExporter();
// A trace with no parent is sampled (the root sampler: always on); an unsampled parent is followed. A span made
// in an unsampled request's work without its parent would be a new sampled root, and exported.
const provider = new NodeTracerProvider({
  sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});

beforeAll(() => {
  provider.register();
  setTracingOn(true);
});
afterAll(async () => {
  setTracingOn(false);
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const unsampledHeader = `00-${TRACE}-00f067aa0ba902b7-00`;

function traced(headers: Record<string, string>) {
  const req = { headers } as unknown as import('node:http').IncomingMessage;
  const scope = { clientKey: 'test', transport: 'http', signal: new AbortController().signal };
  const ctx = { req, method: 'POST', path: '/mcp/public', status: 200, state: { scope } } as unknown as import('koa').Context;
  return { req, ctx };
}

describe('a request whose trace is not sampled', () => {
  it('runs its work under no active span and keeps its trace id for its log lines', async () => {
    const { req, ctx } = traced({ traceparent: unsampledHeader });
    let active: Span | undefined = trace.getActiveSpan();
    await requestTrace()(ctx, async () => {
      active = trace.getActiveSpan();
    });
    expect(active).toBeUndefined();
    expect(traceIdOf(req)).toBe(TRACE);
    expect(sampledTraceIdOf(req)).toBeUndefined();
    expect(unrecordedTraceOf(req)?.traceId).toBe(TRACE);
    // The tool calls' scope names it for their failure lines.
    expect(scopeOf(ctx, 'mcp-2025').traceId).toBe(TRACE);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('makes no message span for a tool call without _meta: its work runs under none', async () => {
    const { req, ctx } = traced({ traceparent: unsampledHeader });
    let active: Span | undefined;
    let served = 0;
    await requestTrace()(ctx, () =>
      traceMessage(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_apartment_tool', arguments: {} } },
        '2025-11-25',
        () => true,
        async () => {
          served += 1;
          active = trace.getActiveSpan();
        },
        unrecordedTraceOf(req),
      ),
    );
    expect(served).toBe(1);
    expect(active).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("exports a tool call whose _meta names a sampled trace, its work under it and linked to the request's span", async () => {
    const { req, ctx } = traced({ traceparent: unsampledHeader });
    const metaTrace = 'a'.repeat(31) + 'b';
    const metaParent = 'c'.repeat(15) + 'd';
    let recording = false;
    await requestTrace()(ctx, () =>
      traceMessage(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'get_apartment_tool', arguments: {}, _meta: { traceparent: `00-${metaTrace}-${metaParent}-01` } },
        },
        '2025-11-25',
        () => true,
        async () => {
          recording = trace.getActiveSpan()?.isRecording() === true;
        },
        unrecordedTraceOf(req),
      ),
    );
    expect(recording).toBe(true);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['tools/call get_apartment_tool']);
    expect(spans[0].spanContext().traceId).toBe(metaTrace);
    expect(spans[0].parentSpanContext?.spanId).toBe(metaParent);
    expect(spans[0].links.map((l) => l.context)).toEqual([unrecordedTraceOf(req)]);
    expect(spans[0].links[0].context.traceId).toBe(TRACE);
  });

  it('names its trace in the failure line of a fault it answers 500 for', async () => {
    const { lines, out } = logLines();
    const app = new Koa();
    app.use(requestTrace());
    app.use(errorMiddleware(createLogger('error', 'test', out)));
    app.use(() => {
      throw new Error('a fault nobody expected');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/status`, { headers: { traceparent: unsampledHeader } });
      expect(res.status).toBe(500);
      await res.arrayBuffer();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const failure = failureLine(lines);
    expect(failure).toMatchObject({ trace_id: TRACE, path: '/api/public/status' });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("names its trace in the failure line of a tool's fault", () => {
    const { lines, out } = logLines();
    const deps = { log: createLogger('error', 'test', out) } as unknown as Deps;
    const result = errorResult(new Error('a fault nobody expected'), deps, 'get_apartment_tool', TRACE);
    expect(result.isError).toBe(true);
    const failure = failureLine(lines);
    expect(failure).toMatchObject({ trace_id: TRACE, tool: 'get_apartment_tool' });
  });

  it("names the recorded span's trace in a tool's failure line under its _meta trace, not the request's", () => {
    const { lines, out } = logLines();
    const deps = { log: createLogger('error', 'test', out) } as unknown as Deps;
    const metaTrace = 'e'.repeat(31) + 'f';
    const parent = trace.setSpanContext(context.active(), { traceId: metaTrace, spanId: '1'.repeat(16), traceFlags: 1 });
    const span = trace.getTracer('test').startSpan('tools/call get_apartment_tool', {}, parent);
    context.with(trace.setSpan(parent, span), () => errorResult(new Error('a fault nobody expected'), deps, 'get_apartment_tool', TRACE));
    span.end();
    const failure = failureLine(lines);
    expect(failure).toMatchObject({ trace_id: metaTrace });
  });
});

function logLines(): { lines: string[]; out: Writable } {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, out };
}

/** The first `request failed` line written, parsed. */
function failureLine(lines: string[]): Record<string, unknown> | undefined {
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request failed');
}
