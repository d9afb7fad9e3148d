/**
 * OpenTelemetry traces end to end: the service exports OTLP over HTTP (JSON) to a small receiver
 * run here, which decodes every span it gets. One trace per request on both transports; the parent
 * from a `traceparent` header and from a tool call's `params._meta`; Elasticsearch, MongoDB and
 * pricing spans under the tool call; no guest contact detail in any span; `trace_id` on the log
 * lines (docs/operations.md, "Traces"; docs/decisions.md, "Traces"). The service runs in a process of
 * its own, started as `npm run serve` starts it, with the standard OTEL_* variables set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { dropWorld, seedWorld, testConfig } from '../support/fixture';
import { freePort } from '../support/free-port';
import { jsonRpcOf } from '../support/json-rpc-answer';
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  links: Array<{ traceId: string; spanId: string }>;
  scope: string;
  /** OTLP's status: code 2 is ERROR. */
  status?: { code?: number };
}

/** The OTLP/HTTP JSON receiver: every span of every export request, decoded (ids are hex in OTLP JSON). */
function startReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[]; bodies: string[] }> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) {
        res.statusCode = 415;
        return res.end();
      }
      bodies.push(text);
      const body = JSON.parse(text) as {
        resourceSpans: Array<{
          scopeSpans: Array<{
            scope: { name: string };
            spans: Array<
              Omit<ReceivedSpan, 'attributes' | 'links' | 'scope'> & {
                attributes?: Array<{ key: string; value: OtlpValue }>;
                links?: Array<{ traceId: string; spanId: string }>;
              }
            >;
          }>;
        }>;
      };
      for (const rs of body.resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans) {
            const attributes: ReceivedSpan['attributes'] = {};
            for (const a of s.attributes ?? [])
              attributes[a.key] =
                a.value.stringValue ?? (a.value.intValue !== undefined ? Number(a.value.intValue) : (a.value.boolValue ?? a.value.doubleValue));
            spans.push({ ...s, parentSpanId: s.parentSpanId || undefined, attributes, links: s.links ?? [], scope: ss.scope.name });
          }
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}`, spans, bodies });
    }),
  );
}

const OTEL_ENV = {
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_TRACES_SAMPLER: 'parentbased_always_on',
  OTEL_BSP_SCHEDULE_DELAY: '50',
  OTEL_SERVICE_NAME: 'catalog-under-test',
};

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let config: Config;
let world: { mongo: MongoHandle; es: EsClient };
let child: ChildProcess;
let url: string;
let adminUrl: string;
/** The trace of the traced search of the first test: its exemplar is looked for in /metrics. */
/** The service's log lines (JSON on a pipe). */
const lines: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  config = testConfig();
  world = await seedWorld(config, 80);
  const port = await freePort();
  const adminPort = await freePort();
  url = `http://127.0.0.1:${port}`;
  adminUrl = `http://127.0.0.1:${adminPort}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: {
      ...process.env,
      ...OTEL_ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      HOST: '127.0.0.1',
      MONGO_DB: config.mongoDb,
      HOMES_ALIAS: config.homesAlias,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the service did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (world) await dropWorld(config, world.mongo, world.es);
  await new Promise<void>((resolve) => receiver?.server.close(() => resolve()));
});

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** The spans of `traceId` once the span named `root` has arrived (the batch processor exports every 50 ms). */
async function traceOf(traceId: string, done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    if (done(spans)) return spans;
    if (Date.now() > deadline) throw new Error(`trace ${traceId} incomplete: ${JSON.stringify(spans.map((s) => s.name))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether `span` descends from the span `ancestor` through the parents received. */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, all: ReceivedSpan[]): boolean {
  let at: ReceivedSpan | undefined = span;
  for (let hops = 0; at && hops < 20; hops++) {
    if (at.parentSpanId === ancestor.spanId) return true;
    at = all.find((s) => s.spanId === at?.parentSpanId);
  }
  return false;
}

async function toolCall(name: string, args: Record<string, unknown>, meta?: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url + '/mcp/public', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } }),
  });
  return { status: res.status, message: await jsonRpcOf(res) };
}

describe('traces exported over OTLP/HTTP', () => {
  it('continues the trace of a traceparent header on a GET, names the route and puts Elasticsearch under it', async () => {
    const traceId = hex(16);
    const parent = hex(8);
    const market = (await world.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const res = await fetch(`${url}/api/public/search?market=${market}`, { headers: { traceparent: `00-${traceId}-${parent}-01`, tracestate: 'vendor=kept' } });
    expect(res.status).toBe(200);
    const spans = await traceOf(traceId, (s) => s.some((x) => x.name === 'GET /api/public/search'));
    const server = spans.find((s) => s.name === 'GET /api/public/search')!;
    expect(server.parentSpanId).toBe(parent);
    expect(server.kind).toBe(2); // SERVER
    // The resource names the service as OTEL_SERVICE_NAME says (over the service's own default).
    expect(receiver.bodies.join('\n')).toMatch(/"key":"service\.name","value":\{"stringValue":"catalog-under-test"\}/);
    expect(server.attributes['http.route']).toBe('/api/public/search');
    expect(server.attributes['http.response.status_code']).toBe(200);
    expect(server.attributes['catalog.homes_priced']).toBeGreaterThan(0);
    // The search keeps no answers: its span says so rather than saying nothing.
    expect(server.attributes['catalog.cache']).toBe('none');
    const es = spans.filter((s) => s.attributes['db.system'] === 'elasticsearch');
    expect(es.length).toBeGreaterThan(0);
    for (const s of es) expect(descendsFrom(s, server, spans)).toBe(true);
    expect(spans.some((s) => s.name === 'pricing' && descendsFrom(s, server, spans))).toBe(true);
    // The access line of the request names its trace.
    expect(lines.some((l) => l.includes('"route":"/api/public/search"') && l.includes(`"trace_id":"${traceId}"`))).toBe(true);
  });

  it("parents a tool call on its params._meta trace context, links the HTTP request's span, and puts Elasticsearch and MongoDB under it", async () => {
    const headerTrace = hex(16);
    const metaTrace = hex(16);
    const metaParent = hex(8);
    const market = (await world.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const { status, message } = await toolCall(
      'search_apartments_tool',
      { market },
      { traceparent: `00-${metaTrace}-${metaParent}-01`, tracestate: 'mcp=1' },
      { traceparent: `00-${headerTrace}-${hex(8)}-01` },
    );
    expect(status).toBe(200);
    expect(message.result.isError).toBeFalsy();
    const spans = await traceOf(metaTrace, (s) => s.some((x) => x.name === 'tools/call search_apartments_tool'));
    const call = spans.find((s) => s.name === 'tools/call search_apartments_tool')!;
    expect(call.parentSpanId).toBe(metaParent);
    expect(call.attributes['gen_ai.tool.name']).toBe('search_apartments_tool');
    expect(call.attributes['mcp.method.name']).toBe('tools/call');
    expect(call.attributes['catalog.mcp.era']).toBe('mcp-2025');
    expect(call.attributes['catalog.homes_priced']).toBeGreaterThan(0);
    // The HTTP request's span stays in the header's trace; the tool call links to it.
    const http = (await traceOf(headerTrace, (s) => s.some((x) => x.name === 'POST /mcp/public'))).find((s) => s.name === 'POST /mcp/public')!;
    expect(call.links).toEqual([expect.objectContaining({ traceId: headerTrace, spanId: http.spanId })]);
    const es = spans.filter((s) => s.attributes['db.system'] === 'elasticsearch');
    const mongo = spans.filter((s) => s.attributes['db.system.name'] === 'mongodb');
    expect(es.length).toBeGreaterThan(0);
    expect(mongo.length).toBeGreaterThan(0);
    for (const s of [...es, ...mongo]) expect(descendsFrom(s, call, spans)).toBe(true);
  });

  it('without _meta, a tool call is the child of the HTTP request, and an error names its code', async () => {
    const traceId = hex(16);
    const { message } = await toolCall('get_apartment_tool', { slug: 'no-such-home-anywhere' }, undefined, { traceparent: `00-${traceId}-${hex(8)}-01` });
    expect(message.result.isError).toBe(true);
    const spans = await traceOf(traceId, (s) => s.some((x) => x.name === 'tools/call get_apartment_tool') && s.some((x) => x.name === 'POST /mcp/public'));
    const http = spans.find((s) => s.name === 'POST /mcp/public')!;
    const call = spans.find((s) => s.name === 'tools/call get_apartment_tool')!;
    expect(call.parentSpanId).toBe(http.spanId);
    expect(call.attributes['error.type']).toBe('home_not_found');
    expect(http.attributes['error.type']).toBe('home_not_found');
    expect(spans.some((s) => s.attributes['db.system.name'] === 'mongodb' && s.parentSpanId === call.spanId)).toBe(true);
  });

  it('names a call of an unknown tool, an unknown method and their ids by nothing the client typed, and fails them with their JSON-RPC code', async () => {
    const typed = { tool: 'carol.person@example.com +14155550100', method: 'secret/method-ellen@example.com', id: 'dave.secret@example.com' };
    const post = async (message: Record<string, unknown>, traceId: string) => {
      const res = await fetch(url + '/mcp/public', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', traceparent: `00-${traceId}-${hex(8)}-01` },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      });
      return jsonRpcOf(res);
    };
    const unknownTool = hex(16);
    const toolAnswer = await post({ id: typed.id, method: 'tools/call', params: { name: typed.tool, arguments: {} } }, unknownTool);
    expect(toolAnswer.error?.code ?? toolAnswer.result?.isError).toBeTruthy();
    const unknownMethod = hex(16);
    const methodAnswer = await post({ id: 3, method: typed.method, params: {} }, unknownMethod);
    expect(methodAnswer.error?.code).toBe(-32601);
    const toolSpans = await traceOf(unknownTool, (s) => s.some((x) => x.name === 'tools/call') && s.some((x) => x.name === 'POST /mcp/public'));
    const methodSpans = await traceOf(unknownMethod, (s) => s.some((x) => x.name === '_OTHER') && s.some((x) => x.name === 'POST /mcp/public'));
    const call = toolSpans.find((x) => x.name === 'tools/call')!;
    expect(call.attributes['gen_ai.tool.name']).toBeUndefined();
    expect(call.attributes['jsonrpc.request.id']).toBeUndefined();
    const other = methodSpans.find((x) => x.name === '_OTHER')!;
    expect(other.attributes['mcp.method.name']).toBe('_OTHER');
    expect(other.attributes['jsonrpc.request.id']).toBe('3');
    expect(other.attributes['error.type']).toBe('-32601');
    expect(other.status?.code).toBe(2);
    if (toolAnswer.error) {
      expect(call.attributes['error.type']).toBe(String(toolAnswer.error.code));
      expect(call.status?.code).toBe(2);
    }
    const everything = JSON.stringify([...toolSpans, ...methodSpans]);
    for (const text of ['carol.person', '4155550100', 'ellen@', 'dave.secret']) expect(everything).not.toContain(text);
  });

  it('keeps a tool call whose _meta traceparent is malformed the child of the HTTP request, with no link', async () => {
    const traceId = hex(16);
    const { message } = await toolCall(
      'get_apartment_tool',
      { slug: 'no-such-home-anywhere' },
      { traceparent: '00-zzzz-yyyy-01' },
      { traceparent: `00-${traceId}-${hex(8)}-01` },
    );
    expect(message.result.isError).toBe(true);
    const spans = await traceOf(traceId, (s) => s.some((x) => x.name === 'tools/call get_apartment_tool') && s.some((x) => x.name === 'POST /mcp/public'));
    const http = spans.find((s) => s.name === 'POST /mcp/public')!;
    const call = spans.find((s) => s.name === 'tools/call get_apartment_tool')!;
    expect(call.parentSpanId).toBe(http.spanId);
    expect(call.links).toEqual([]);
  });

  it('names a search shed before routing by its route, with its 429 as the error', async () => {
    const market = (await world.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    // More searches at once than one client may have in flight (MAX_IN_FLIGHT_PER_CLIENT, 6 by default): some are shed.
    const asked = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const traceId = hex(16);
        const res = await fetch(`${url}/api/public/search?market=${market}&page=${i + 1}`, { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
        await res.arrayBuffer();
        return { traceId, status: res.status };
      }),
    );
    const shed = asked.filter((a) => a.status === 429);
    expect(shed.length).toBeGreaterThan(0);
    for (const { traceId } of shed) {
      const [server] = await traceOf(traceId, (s) => s.some((x) => x.kind === 2));
      expect([server.name, server.attributes['http.route'], server.attributes['error.type']]).toEqual(['GET /api/public/search', '/api/public/search', '429']);
    }
  });

  it('writes the trace id once in an access line (a log store refuses a key given twice)', () => {
    const access = lines.filter((l) => l.includes('"msg":"request"') && l.includes('"trace_id"'));
    expect(access.length).toBeGreaterThan(0);
    for (const line of access) expect(line.match(/"trace_id":/g)).toHaveLength(1);
  });

  it('exports nothing of a request whose trace is not sampled, and its access line still names the trace', async () => {
    const unsampled = hex(16);
    const before = receiver.spans.length;
    const { message } = await toolCall('get_apartment_tool', { slug: 'no-such-home-anywhere' }, undefined, { traceparent: `00-${unsampled}-${hex(8)}-00` });
    expect(message.result.isError).toBe(true);
    // A sampled call after it: once its spans have arrived, the unsampled call's would have too.
    const fence = hex(16);
    await toolCall('get_apartment_tool', { slug: 'no-such-home-anywhere' }, undefined, { traceparent: `00-${fence}-${hex(8)}-01` });
    await traceOf(fence, (s) => s.some((x) => x.name === 'POST /mcp/public') && s.some((x) => x.name === 'tools/call get_apartment_tool'));
    expect(receiver.spans.filter((s) => s.traceId === unsampled)).toEqual([]);
    // Nor under a trace of its own: its work made no span that, with no parent, would start a sampled root (the
    // searches of the test before may still be arriving: each has the parent its header named).
    const roots = receiver.spans.slice(before).filter((s) => s.traceId !== fence && s.parentSpanId === undefined);
    expect(roots.map((s) => s.name)).toEqual([]);
    expect(lines.some((l) => l.includes('"route":"/mcp/public"') && l.includes(`"trace_id":"${unsampled}"`))).toBe(true);
  });

  it('exports no email and no phone number of a booking intent in any span', async () => {
    const traceId = hex(16);
    const email = `trace.guest.${hex(3)}@example.com`;
    const { message } = await toolCall('booking_intent_tool', { email, phone: '(415) 555-0172', name: 'Ada Tracer', guest_consent: true }, undefined, {
      traceparent: `00-${traceId}-${hex(8)}-01`,
    });
    expect(message.result.isError).toBeFalsy();
    const spans = await traceOf(traceId, (s) => s.some((x) => x.name === 'tools/call booking_intent_tool') && s.some((x) => x.name === 'POST /mcp/public'));
    expect(spans.some((s) => s.attributes['db.collection.name'] === 'booking_intents')).toBe(true);
    expect(spans.length).toBeGreaterThan(2);
    const everything = receiver.bodies.join('\n');
    expect(everything).not.toContain(email);
    expect(everything).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
    expect(everything).not.toMatch(/555-?0172|4155550172/);
    expect(everything).not.toContain('Ada Tracer');
  });

  it("gives the request histogram's bucket the trace id of a sampled request as its exemplar (OpenMetrics)", async () => {
    // A search of its own, just before /metrics is read: a bucket keeps the last sampled request's trace id, and the
    // searches of earlier tests (the shed ones too) may have landed in the same bucket after any earlier one.
    const searchTrace = hex(16);
    const market = (await world.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const search = await fetch(`${url}/api/public/search?market=${market}`, { headers: { traceparent: `00-${searchTrace}-${hex(8)}-01` } });
    expect(search.status).toBe(200);
    await search.arrayBuffer();
    const res = await fetch(`${adminUrl}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^application\/openmetrics-text/);
    const text = await res.text();
    const buckets = text.split('\n').filter((l) => l.startsWith('catalog_http_request_duration_seconds_bucket{') && l.includes('route="/api/public/search"'));
    expect(buckets.some((l) => l.includes(`# {trace_id="${searchTrace}"}`))).toBe(true);
    // The counters' samples keep the names the Prometheus text gives them.
    expect(text).toMatch(/^catalog_tool_calls_total\{/m);
    expect(text.trimEnd().endsWith('# EOF')).toBe(true);
  });

  it('makes an import and the indexer run that applies it traces of their own, the run linked to the import', async () => {
    const home = (await world.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!;
    const { created_at: _c, updated_at: _u, deleted_at: _d, ...record } = home as typeof home & Record<string, unknown>;
    void [_c, _u, _d];
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'catalog-trace-')), 'one-home.ndjson');
    writeFileSync(file, JSON.stringify({ kind: 'home', record: { ...record, name: `${home.name} (renamed)` } }) + '\n');
    const env = {
      ...process.env,
      ...OTEL_ENV,
      OTEL_SERVICE_NAME: '',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      MONGO_DB: config.mongoDb,
      HOMES_ALIAS: config.homesAlias,
      LOG_LEVEL: 'warn',
    };
    const imported = spawn(process.execPath, ['--import', 'tsx', 'indexer/import-cli.ts', file], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    expect(await new Promise((resolve) => imported.once('exit', resolve))).toBe(0);
    const importSpan = receiver.spans.find((s) => s.name === 'inventory import');
    expect(importSpan).toBeDefined();
    expect(importSpan!.parentSpanId).toBeUndefined();
    const change = await world.mongo.collections.inventoryChanges.findOne({ source: 'import' });
    expect(change?.trace?.traceparent).toContain(importSpan!.traceId);

    const worker = spawn(process.execPath, ['--import', 'tsx', 'indexer/worker.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      const deadline = Date.now() + 30_000;
      let run: ReceivedSpan | undefined;
      while (!run && Date.now() < deadline) {
        run = receiver.spans.find((s) => s.name === 'indexer incremental' && s.links.some((l) => l.traceId === importSpan!.traceId));
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(run).toBeDefined();
      expect(run!.traceId).not.toBe(importSpan!.traceId);
      expect(run!.parentSpanId).toBeUndefined();
      expect(run!.links).toEqual([expect.objectContaining({ traceId: importSpan!.traceId, spanId: importSpan!.spanId })]);
      // The run's Elasticsearch calls are its children.
      expect(receiver.spans.some((s) => s.traceId === run!.traceId && s.attributes['db.system'] === 'elasticsearch')).toBe(true);
    } finally {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
  });
});
