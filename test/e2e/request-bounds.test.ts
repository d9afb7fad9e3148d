/**
 * A request as a whole is bounded: a deadline that answers 503 with Retry-After and cancels the work
 * under it, a cap on requests in flight that sheds instead of queueing, work stopped when the client
 * goes away, Node's header timeout and connection cap; before the first index exists, 503 and one
 * warning; /metrics and the whole health report only on the admin port.
 */
import { connect, type Socket } from 'node:net';
import { startService, type RunningService } from '../../services/main';
import { startFixture, testConfig, type Fixture } from '../support/fixture';
import { logSink } from '../support/log-sink';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy';

let fx: Fixture;
let es: TcpProxy;
const others: RunningService[] = [];

beforeAll(async () => {
  const real = new URL(process.env.ES_URL ?? 'http://127.0.0.1:9200');
  es = await tcpProxy(real.hostname, Number(real.port));
  // The stores' own deadline is long here, so only the request's deadline can end a request early.
  fx = await startFixture({ homes: 20, env: { ES_URL: `http://127.0.0.1:${es.port}`, STORE_DEADLINE_MS: '10000' } });
}, 120_000);

afterEach(() => es.hold(false));

afterAll(async () => {
  for (const svc of others) await svc.close();
  await fx?.close();
  await es?.shut();
});

async function another(env: Record<string, string>, logDestination?: NodeJS.WritableStream): Promise<RunningService> {
  const config = testConfig({
    MONGO_DB: fx.config.mongoDb,
    HOMES_ALIAS: fx.config.homesAlias,
    ES_URL: `http://127.0.0.1:${es.port}`,
    STORE_DEADLINE_MS: '10000',
    ...env,
  });
  const svc = await startService(config, logDestination ? { logDestination: logDestination as never } : {});
  others.push(svc);
  return svc;
}

const SEARCH = '/api/public/search?market=boston';

async function timed(url: string, init: RequestInit = {}) {
  const t = Date.now();
  const res = await fetch(url, init);
  const body = (await res.json()) as { error?: { code: string; message: string } };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: Date.now() - t };
}

const until = async (check: () => boolean, ms: number): Promise<boolean> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
};

describe('the deadline of a request', () => {
  it('answers 503 with Retry-After and the error object at the deadline, and cancels its Elasticsearch call', async () => {
    const svc = await another({ REQUEST_DEADLINE_MS: '800' });
    es.hold(true);
    const closedBefore = es.closedByClients();
    const answer = await timed(`${svc.url}${SEARCH}`);
    expect(answer.status).toBe(503);
    expect(answer.ms).toBeLessThan(2_500);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(answer.body).toEqual({ error: { code: 'service_unavailable', message: expect.stringMatching(/did not finish within 0.8 s/) } });
    // The search under it was cancelled: its connection to Elasticsearch closed, not left to the store's 10 s.
    expect(await until(() => es.closedByClients() > closedBefore, 2_000)).toBe(true);
  });

  it('stops the work when the client goes away before the answer', async () => {
    const svc = await another({ REQUEST_DEADLINE_MS: '20000' });
    es.hold(true);
    const closedBefore = es.closedByClients();
    await expect(fetch(`${svc.url}${SEARCH}`, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(await until(() => es.closedByClients() > closedBefore, 2_000)).toBe(true);
  });
});

describe('requests in flight', () => {
  it('sheds the request past the cap at once with 503 and Retry-After, instead of queueing it (a search weighs 2 of the 4 units)', async () => {
    const svc = await another({ MAX_IN_FLIGHT: '4', REQUEST_DEADLINE_MS: '3000' });
    es.hold(true);
    const held = [timed(`${svc.url}${SEARCH}`), timed(`${svc.url}${SEARCH}`)];
    await new Promise((r) => setTimeout(r, 200));
    const shed = await timed(`${svc.url}${SEARCH}`);
    expect(shed.status).toBe(503);
    expect(shed.ms).toBeLessThan(500);
    expect(shed.retryAfter).toBe('1');
    expect(shed.body.error).toEqual({ code: 'service_unavailable', message: expect.stringMatching(/at capacity/) });
    // Health is not a request of the API: it is answered while the API sheds.
    expect((await fetch(`${svc.url}/livez`)).status).toBe(200);
    // The two held searches were admitted: they end at their deadline, not shed.
    for (const answer of await Promise.all(held)) expect(answer.body.error?.message).toMatch(/did not finish within 3 s/);
  });

  it("counts the page's files and photos toward the client's share (MAX_IN_FLIGHT_PER_CLIENT)", async () => {
    const svc = await another({ MAX_IN_FLIGHT: '8', MAX_IN_FLIGHT_PER_CLIENT: '2', REQUEST_DEADLINE_MS: '3000' });
    // Built before the client's share is taken, so the files answer at once once it is free.
    expect((await fetch(`${svc.url}/app/page.js`)).status).toBe(200);
    es.hold(true);
    const held = timed(`${svc.url}${SEARCH}`); // a search weighs 2: the whole share
    await new Promise((r) => setTimeout(r, 200));
    for (const path of ['/app/page.js', '/app/us-states.json', '/media/no-such-photo.jpg', '/']) {
      const refused = await timed(`${svc.url}${path}`);
      expect({ path, status: refused.status, retryAfter: refused.retryAfter }).toEqual({ path, status: 429, retryAfter: '1' });
      expect(refused.body.error).toEqual({ code: 'rate_limited', message: expect.stringMatching(/at once/) });
    }
    expect((await held).status).toBe(503);
    es.hold(false);
    expect((await fetch(`${svc.url}/app/page.js`)).status).toBe(200);
  });
});

describe('before the first index exists', () => {
  it('answers 503 with Retry-After and logs one warning, not an error per request', async () => {
    const { sink, lines } = logSink();
    const svc = await another({ HOMES_ALIAS: `${fx.config.homesAlias}-not-built`, LOG_LEVEL: 'info' }, sink);
    for (let i = 0; i < 3; i++) {
      const answer = await timed(`${svc.url}${SEARCH}`);
      expect(answer.status).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body.error?.code).toBe('service_unavailable');
    }
    const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(entries.filter((e) => e.level >= 50)).toEqual([]);
    expect(entries.filter((e) => e.level === 40 && /no search index yet/.test(e.msg))).toHaveLength(1);
  });
});

describe('the admin port', () => {
  it('serves /metrics and the whole status there, and neither on the public port', async () => {
    expect((await fetch(`${fx.url}/metrics`)).status).toBe(404);
    const metrics = await fetch(`${fx.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^catalog_http_request_duration_seconds/m);
    const full = (await (await fetch(`${fx.adminUrl}/status`)).json()) as { index: { alias: string; documents: number } };
    expect(full.index.alias).toBe(fx.config.homesAlias);
    expect(full.index.documents).toBeGreaterThan(0);
  });

  it('leaves the public status what a public client needs: no index names, counts or skipped records', async () => {
    const { status, body } = await fx.get('/api/public/status');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', time: expect.any(String), index: { loaded: true, updated_at: expect.any(String) } });
  });
});

describe("Node's own bounds", () => {
  const open = (port: number): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
  const closes = (s: Socket, ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      s.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
      s.resume();
    });

  it('cuts off a client that does not finish its headers within HEADERS_TIMEOUT_MS', async () => {
    const svc = await another({ HEADERS_TIMEOUT_MS: '1000' });
    const s = await open(Number(new URL(svc.url).port));
    s.write('GET /api/public/markets HTTP/1.1\r\nHost: localhost\r\n');
    expect(await closes(s, 4_000)).toBe(true);
  });

  it('refuses a connection past MAX_CONNECTIONS', async () => {
    const svc = await another({ MAX_CONNECTIONS: '2' });
    const port = Number(new URL(svc.url).port);
    const held = [await open(port), await open(port)];
    const third = await open(port);
    expect(await closes(third, 2_000)).toBe(true);
    for (const s of held) s.destroy();
  });
});

describe('a request Node cannot read', () => {
  it('answers a URL over the header limit (a long polygon) 431 with the error object, never an empty status or a reset', async () => {
    const vertices = Array.from({ length: 1_000 }, (_, i) => `40.${String(i).padStart(6, '0')},-73.${String(i).padStart(6, '0')}`).join(';');
    const res = await fetch(`${fx.url}/api/public/search?polygon=${vertices}`);
    expect(res.status).toBe(431);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'headers_too_large',
      message: expect.stringContaining('KiB'),
    });
  });

  it('answers bytes that are not HTTP 400 with the error object', async () => {
    const s = connect(Number(new URL(fx.url).port), '127.0.0.1');
    const text = await new Promise<string>((resolve) => {
      let got = '';
      s.on('data', (d: Buffer) => (got += d.toString()));
      s.on('close', () => resolve(got));
      s.write('NOT HTTP AT ALL\r\n\r\n');
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toBe('invalid_parameters');
  });
});

describe('paths as the bounds read them', () => {
  it.each([
    ['GET', '/API/public/status'],
    ['GET', '/api/public/status/'],
    ['GET', '/Api/public/homes/x'],
    ['POST', '/mcp/public/'],
    ['POST', '/MCP/public'],
  ])('answers %s %s 404 (no route matches another case or a trailing slash), never a 5xx', async (method, path) => {
    const res = await fetch(`${fx.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
