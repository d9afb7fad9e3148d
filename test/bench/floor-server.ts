/**
 * The bench's floor: a bare Node HTTP server that does only what any service in front of the stores
 * must do, with the service's own clients and nothing else (no routing, validation, pricing, shaping
 * or tool server). `POST /es` sends the Elasticsearch round trips in its body (a search, or an `_msearch` of several), one after the other, and
 * answers what Elasticsearch found, serialized again; `POST /compare` sends compare's two MongoDB reads
 * for the slugs in its body; `POST /home` the apartment read's lookups for the slug in its body (the home by
 * slug beside the index generation, its building from a map kept by the server). Its throughput beside the store's own is what one network hop and one
 * parse and serialization cost on this machine: a service cannot keep more than that. With `?mcp`,
 * the answer is a tool server's: a JSON-RPC result carrying it twice, as a text block and as
 * `structuredContent` (MCP's rule for structured results), still without any MCP library.
 *
 * With an OTLP endpoint (the standard OTEL_* variables, as the service reads them) it is also the floor of
 * tracing: the SDK the service starts (../../services/kernel/tracing-sdk.ts), one server span per request
 * (its parent from `traceparent`) and, under a sampled trace, one client span per store call, and
 * nothing else: what any traced service in front of these stores spends on OpenTelemetry. Started by
 * the traces bench, its tracing is switched on and off as it runs (./tracing-switch.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { loadConfig } from '../../services/kernel/config';
import { createEsClient } from '../../services/kernel/store/es-client';
import { connectMongo } from '../../services/kernel/store/mongo';
import { readGeneration } from '../../services/kernel/store/index-generation';
import type { PropertyRecord } from '../../services/kernel/inventory/records';
import { sendRoundTrip, type RoundTrip } from '../../services/search/shared/search-transport';
import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { startTracing } from '../../services/kernel/tracing-sdk';
import { tracer, tracingOn } from '../../services/kernel/tracing';
import { answerSwitches } from './tracing-switch';

/** A store call, as a client span of the request's when its trace is sampled. */
async function stored<T>(name: string, call: () => Promise<T>): Promise<T> {
  if (!tracingOn() || !trace.getActiveSpan()?.isRecording()) return call();
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'mongodb', 'db.operation.name': name.split(' ')[0] } });
  try {
    return await call();
  } finally {
    span.end();
  }
}

/** `serve` under the request's server span while tracing is on. */
async function traced(req: IncomingMessage, serve: () => Promise<void>): Promise<void> {
  if (!tracingOn()) return serve();
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer.startSpan(`${req.method ?? 'GET'} ${(req.url ?? '').split('?')[0]}`, { kind: SpanKind.SERVER }, parent);
  try {
    await context.with(trace.setSpan(parent, span), serve);
  } finally {
    span.end();
  }
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

let rpc = 0;
function send(res: ServerResponse, status: number, value: unknown, mcp = false): void {
  const json = mcp
    ? JSON.stringify({ jsonrpc: '2.0', id: ++rpc, result: { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value } })
    : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) }).end(json);
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const tracing = startTracing('catalog-floor');
  const es = createEsClient(config.esUrl, { deadlineMs: config.storeDeadlineMs });
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  const buildings = new Map<string, PropertyRecord>();
  const server = createServer((req, res) => {
    void traced(req, async () => {
      try {
        if (req.method === 'GET') return send(res, 200, { ready: true });
        const body = await bodyOf(req);
        const [path, query] = (req.url ?? '').split('?');
        const mcp = query === 'mcp';
        if (path === '/es') {
          const found = [];
          for (const trip of body as RoundTrip[]) {
            for (const r of await sendRoundTrip(es, config.homesAlias, trip)) found.push({ hits: r.hits, aggregations: r.aggregations });
          }
          return send(res, 200, found, mcp);
        }
        if (path === '/home') {
          const [home] = await Promise.all([
            stored('find homes', () => mongo.collections.homes.findOne({ slug: body as string })),
            stored('find indexer_state', () => readGeneration(mongo.collections.indexerState)),
          ]);
          if (!home) return send(res, 404, { error: 'home_not_found' }, mcp);
          let property = buildings.get(home.property_id);
          if (!property) {
            property = (await stored('find properties', () => mongo.collections.properties.findOne({ _id: home.property_id }))) ?? undefined;
            if (property) buildings.set(home.property_id, property);
          }
          return send(res, 200, { home, property }, mcp);
        }
        if (path === '/compare') {
          const homes = await stored('find homes', () => mongo.collections.homes.find({ slug: { $in: body as string[] } }).toArray());
          const properties = await stored('find properties', () =>
            mongo.collections.properties.find({ _id: { $in: [...new Set(homes.map((h) => h.property_id))] } }).toArray(),
          );
          return send(res, 200, { homes, properties }, mcp);
        }
        send(res, 404, { error: 'unknown path' });
      } catch (err) {
        send(res, 500, { error: String(err) });
      }
    });
  });
  server.listen(config.port, config.host);
  // The traces bench switches a traced floor's tracing as it runs (nothing without an IPC channel).
  answerSwitches();
  process.on('SIGTERM', () => {
    server.close();
    void Promise.all([mongo.close(), tracing.stop()]).finally(() => process.exit(0));
  });
}

void main();
