/**
 * What operators run the service by, through real HTTP on the real stack: /livez, /readyz (and
 * what it says when the alias points at no index: test/e2e/store-outage.test.ts freezes each store), /metrics parsed by a Prometheus text-format parser after
 * real traffic, and what it counts when things go wrong (a refused tool call, a store that is down,
 * a failed indexer run), and the access log with its request id (and no contact detail in it).
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { logSink as keptLog } from '../support/log-sink';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { startFixture, testConfig, type Fixture } from '../support/fixture';
import { freePort } from '../support/free-port';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { startService, type RunningService } from '../../services/main';
import { createEsClient } from '../../services/kernel/store/es-client';
import { runIndexerJob } from '../../indexer/runner';

const { sink: logSink, lines: logLines } = keptLog();

let fx: Fixture;
const others: RunningService[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  fx = await startFixture({ homes: 40, env: { LOG_LEVEL: 'info' }, logDestination: logSink });
});

afterAll(async () => {
  for (const s of others) await s.close();
  for (const p of proxies) await p.shut();
  await fx?.close();
});

/** Another copy of the service on the same stores, with some settings changed. */
async function another(env: Record<string, string>): Promise<RunningService> {
  const svc = await startService(testConfig({ MONGO_DB: fx.config.mongoDb, HOMES_ALIAS: fx.config.homesAlias, ...env }));
  others.push(svc);
  return svc;
}

function family(families: ReturnType<typeof parsePrometheusTextFormat>, name: string) {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric family ${name}`);
  return found;
}

describe('liveness and readiness', () => {
  it('/livez answers 200 while the process answers', async () => {
    const res = await fx.get('/livez');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 when the alias points at an index and MongoDB answers', async () => {
    const res = await fx.get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', elasticsearch: 'ok', mongodb: 'ok' });
  });

  it('/readyz answers 503 with the error object naming Elasticsearch when the alias points at no index', async () => {
    const svc = await another({ HOMES_ALIAS: `${fx.config.homesAlias}-missing` });
    const res = await fetch(`${svc.url}/readyz`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('service_unavailable');
    expect(body.error.message).toMatch(/elasticsearch/);
    expect(body.error.message).not.toMatch(/mongodb/);
    // Liveness does not depend on the stores.
    expect((await fetch(`${svc.url}/livez`)).status).toBe(200);
  });
});

describe('metrics', () => {
  it('counts requests by route template and status, tool calls by outcome, store calls, and reports the indexer', async () => {
    const slug = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.slug;
    expect((await fx.get(`/api/public/homes/${slug}`)).status).toBe(200);
    expect((await fx.get('/api/public/homes/no-such-home-anywhere')).status).toBe(404);
    expect((await fx.get('/no/such/path')).status).toBe(404);
    const client = await fx.mcp();
    const ok = await client.callTool({ name: 'list_markets_tool', arguments: {} });
    expect(ok.isError).toBeFalsy();
    const bad = await client.callTool({ name: 'get_apartment_tool', arguments: { home_slug: 'no-such-home-anywhere' } });
    expect(bad.isError).toBe(true);

    const text = await (await fetch(`${fx.adminUrl}/metrics`)).text();
    const families = parsePrometheusTextFormat(text);
    expect(family(families, 'catalog_http_request_duration_seconds').type).toBe('HISTOGRAM');
    // parse-prometheus-text-format drops a histogram's labels and its _count: read those series by their exposition lines.
    const count = (labels: Record<string, string>): number => {
      const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
      return text
        .split('\n')
        .filter((l) => l.startsWith('catalog_http_request_duration_seconds_count{') && wanted.every((w) => l.includes(w)))
        .reduce((s, l) => s + Number(l.split(' ').pop()), 0);
    };
    expect(count({ method: 'GET', route: '/api/public/homes/:slug', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/api/public/homes/:slug', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'POST', route: '/mcp/public', status: '200' })).toBeGreaterThanOrEqual(2);

    const tools = family(families, 'catalog_tool_calls_total');
    const calls = (tool: string, outcome: string): number =>
      Number(tools.metrics.find((m) => m.labels?.tool === tool && m.labels?.outcome === outcome)?.value ?? 0);
    expect(calls('list_markets_tool', 'ok')).toBeGreaterThanOrEqual(1);
    expect(calls('get_apartment_tool', 'tool_error')).toBeGreaterThanOrEqual(1);

    expect(family(families, 'catalog_store_call_duration_seconds').type).toBe('HISTOGRAM');
    expect(text).toMatch(/^catalog_store_call_duration_seconds_count\{store="elasticsearch",operation="search",outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^catalog_store_call_duration_seconds_count\{store="mongodb",operation="find",outcome="ok"\} [1-9]/m);

    const age = family(families, 'catalog_indexer_last_success_age_seconds');
    const full = age.metrics.find((m) => m.labels?.kind === 'full');
    expect(Number(full?.value)).toBeGreaterThanOrEqual(0);
    expect(Number(full?.value)).toBeLessThan(3600);
    expect(Number(family(families, 'catalog_indexer_last_success_documents').metrics.find((m) => m.labels?.kind === 'full')?.value)).toBeGreaterThan(0);
    expect(family(families, 'process_cpu_user_seconds_total').type).toBe('COUNTER');

    // No label carries a value from a request: not the slug, not a raw path.
    expect(text).not.toContain(slug);
    expect(text).not.toMatch(/no-such|\/no\/such/);
  });
});

/** The value of one series in a copy's /metrics, 0 when it is not there yet. */
async function seriesValue(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics when things go wrong', () => {
  it('counts a tool call refused by the rate limit as outcome refused', async () => {
    // Every message counts: initialize and its notification take two points, a search (weight 2) the
    // next two; the second search pays its door point (the fifth) and is refused the rest of its weight.
    const svc = await another({ RATE_LIMIT_POINTS: '5', RATE_LIMIT_SHARED: 'false' });
    const market = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    // A page without photos: its answer pays its weight alone (a larger one settles more points once answered).
    const args = { market, per_page: 5, include_hero_images: false };
    const client = new McpClient({ name: 'ops-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp/public`)));
    try {
      expect((await client.callTool({ name: 'search_apartments_tool', arguments: args })).isError).toBeFalsy();
      expect((await client.callTool({ name: 'search_apartments_tool', arguments: args })).isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(await seriesValue(svc.adminUrl, 'catalog_tool_calls_total{tool="search_apartments_tool",outcome="ok"}')).toBe(1);
    expect(await seriesValue(svc.adminUrl, 'catalog_tool_calls_total{tool="search_apartments_tool",outcome="refused"}')).toBe(1);
  });

  it('counts store failures: a failed Elasticsearch call, and the answers a store that is down failed', async () => {
    // Elasticsearch at a port where nothing listens; MongoDB through a proxy the test shuts later.
    const mongoUrl = new URL(fx.config.mongoUrl);
    const proxy = await tcpProxy(mongoUrl.hostname, Number(mongoUrl.port || 27017));
    proxies.push(proxy);
    const svc = await another({ ES_URL: `http://127.0.0.1:${await freePort()}`, MONGO_URL: `mongodb://127.0.0.1:${proxy.port}/`, RATE_LIMIT_SHARED: 'false' });
    expect((await fetch(`${svc.url}/api/public/markets`)).status).toBe(503);
    expect(
      await seriesValue(svc.adminUrl, 'catalog_store_call_duration_seconds_count{store="elasticsearch",operation="search",outcome="failed"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(await seriesValue(svc.adminUrl, 'catalog_store_unavailable_total{store="elasticsearch"}')).toBe(1);

    // MongoDB goes down: the pooled connection is cut (the next write on it fails) and new ones are
    // refused, so the request after fails in server selection, before any command is sent.
    const slug = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.slug;
    await proxy.shut();
    expect((await fetch(`${svc.url}/api/public/homes/${slug}`)).status).toBe(503);
    expect((await fetch(`${svc.url}/api/public/homes/${slug}`)).status).toBe(503);
    expect(await seriesValue(svc.adminUrl, 'catalog_store_unavailable_total{store="mongodb"}')).toBe(2);
  });

  it('counts a failed indexer run in catalog_indexer_failed_runs_total', async () => {
    const series = 'catalog_indexer_failed_runs_total{kind="full"}';
    const before = await seriesValue(fx.adminUrl, series);
    // A full run while Elasticsearch is unreachable.
    const deadEs = createEsClient(`http://127.0.0.1:${await freePort()}`);
    try {
      await expect(runIndexerJob('full', deadEs, fx.mongo.collections, fx.config)).rejects.toThrow();
    } finally {
      await deadEs.close();
    }
    expect(await seriesValue(fx.adminUrl, series)).toBe(before + 1);
  });

  it('counts an incremental run that cannot reach Elasticsearch as a failed incremental run', async () => {
    const series = 'catalog_indexer_failed_runs_total{kind="incremental"}';
    const before = await seriesValue(fx.adminUrl, series);
    const deadEs = createEsClient(`http://127.0.0.1:${await freePort()}`);
    try {
      await expect(runIndexerJob('incremental', deadEs, fx.mongo.collections, fx.config)).rejects.toThrow();
    } finally {
      await deadEs.close();
    }
    expect(await seriesValue(fx.adminUrl, series)).toBe(before + 1);
  });
});

describe('access log', () => {
  const lines = (): Array<Record<string, any>> => logLines.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l));

  it('writes one line per request with method, route template, status, duration and request id, and echoes the id', async () => {
    const res = await fetch(`${fx.url}/api/public/markets`, { headers: { 'X-Request-Id': 'ops-check-123' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('ops-check-123');
    await new Promise((r) => setTimeout(r, 50));
    const line = lines().filter((l) => l.req?.id === 'ops-check-123');
    expect(line).toHaveLength(1);
    // Each key once in the written line (a parser that keeps the first of two would read another route).
    const raw = logLines.flatMap((l) => l.split('\n')).find((l) => l.includes('"ops-check-123"'))!;
    expect(raw.match(/"route":/g)).toHaveLength(1);
    expect(line[0]).toMatchObject({ msg: 'request', route: '/api/public/markets', req: { method: 'GET' }, res: { statusCode: 200 } });
    expect(typeof line[0].responseTime).toBe('number');
    expect(JSON.stringify(line[0])).not.toMatch(/"url"|headers/);
  });

  it('generates a request id when none (or a malformed one) is given', async () => {
    const none = await fetch(`${fx.url}/livez`);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await fetch(`${fx.url}/livez`, { headers: { 'X-Request-Id': 'has spaces and <script>' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("never writes a booking intent's email, phone or name", async () => {
    const client = await fx.mcp();
    const result = await client.callTool({
      name: 'booking_intent_tool',
      arguments: { email: 'ops-log-guest@example.com', phone: '+14155550199', name: 'Opsy Loggins', guest_consent: true },
    });
    expect(result.isError).toBeFalsy();
    await new Promise((r) => setTimeout(r, 50));
    const all = logLines.join('\n');
    expect(all).toMatch(/"route":"\/mcp\/public"/);
    expect(all).not.toMatch(/ops-log-guest|example\.com|4155550199|Opsy|Loggins/);
  });
});
