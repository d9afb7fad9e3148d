/**
 * A request as a whole is bounded: a deadline that answers 503 with Retry-After and cancels the work
 * under it, a cap on requests in flight that sheds instead of queueing, work stopped when the client
 * goes away, Node's header timeout and connection cap; before the first index exists, 503 and one
 * warning; /metrics and the whole health report only on the admin port.
 */
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startService, type RunningService } from '../../services/main';
import { startFixture, testConfig, type Fixture } from '../support/fixture';
import { logSink } from '../support/log-sink';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { ownAlias } from '../../indexer/es-admin';

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

  it("bounds the page's files and photos apart: a client whose searches hold its whole share still gets its photos", async () => {
    const svc = await another({
      MAX_IN_FLIGHT: '2',
      MAX_IN_FLIGHT_PER_CLIENT: '2',
      MAX_IN_FLIGHT_STATIC: '8',
      MAX_IN_FLIGHT_STATIC_PER_CLIENT: '4',
      REQUEST_DEADLINE_MS: '3000',
    });
    // Built before the client's share is taken, so the files answer at once.
    expect((await fetch(`${svc.url}/app/page.js`)).status).toBe(200);
    es.hold(true);
    const held = timed(`${svc.url}${SEARCH}`); // a search weighs 2: the whole copy and the client's share
    await new Promise((r) => setTimeout(r, 200));
    // The API is full for this client and for the copy...
    expect((await timed(`${svc.url}${SEARCH}`)).status).toBe(503);
    // ...and the page, its files and a photo are answered all the same (a missing photo: 404, not 429 or 503).
    for (const [path, status] of [
      ['/app/page.js', 200],
      ['/app/us-states.json', 200],
      ['/media/no-such-photo.jpg', 404],
      ['/', 200],
    ] as const) {
      const got = await fetch(`${svc.url}${path}`);
      await got.arrayBuffer();
      expect({ path, status: got.status }).toEqual({ path, status });
    }
    expect((await held).status).toBe(503);
    es.hold(false);
  });
});

describe('before the first index exists', () => {
  it('answers 503 with Retry-After and logs one warning a minute for each kind, no error and no stack per request', async () => {
    const { sink, lines } = logSink();
    const svc = await another({ HOMES_ALIAS: `${fx.config.homesAlias}-not-built`, LOG_LEVEL: 'info' }, sink);
    for (let i = 0; i < 5; i++) {
      const answer = await timed(`${svc.url}${SEARCH}`);
      expect(answer.status).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.body.error?.code).toBe('service_unavailable');
      // A balancer's probe of the same copy: not ready until the first index exists.
      const ready = await timed(`${svc.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.body.error?.code).toBe('service_unavailable');
    }
    await new Promise((r) => setTimeout(r, 50));
    const entries = lines.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(entries.filter((e) => e.level >= 50)).toEqual([]);
    expect(entries.filter((e) => e.level === 40 && /no search index yet/.test(e.msg))).toHaveLength(1);
    expect(entries.filter((e) => e.level === 40 && /Not ready/.test(e.msg))).toHaveLength(1);
    // The access line of each 503 says its status; no line carries a stack.
    expect(entries.filter((e) => e.msg === 'request failed')).toHaveLength(10);
    expect(lines.join('')).not.toMatch(/"stack"/);
  });
});

describe('the admin port', () => {
  it('serves /metrics and the whole status there, and neither on the public port', async () => {
    expect((await fetch(`${fx.url}/metrics`)).status).toBe(404);
    const metrics = await fetch(`${fx.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^catalog_http_request_duration_seconds/m);
    const full = (await (await fetch(`${fx.adminUrl}/status`)).json()) as { index: { alias: string; documents: number } };
    // The alias this copy reads: its mapping version's own (docs/decisions.md, "Versioned aliases").
    expect(full.index.alias).toBe(ownAlias(fx.config.homesAlias));
    expect(full.index.documents).toBeGreaterThan(0);
  });

  it('leaves the public status what a public client needs: no index names, counts or skipped records', async () => {
    const { status, body } = await fx.get('/api/public/status');
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', time: expect.any(String), index: { loaded: true, updated_at: expect.any(String) } });
  });
});

describe('the admin port and the Host it answers', () => {
  /** GET `path` on the admin port with `host` as its Host header (fetch may not set one). */
  const adminGet = (adminUrl: string, path: string, host: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${adminUrl}${path}`, { headers: { Host: host } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.once('error', reject);
      req.end();
    });
  const port = (url: string): string => new URL(url).port;

  it.each(['/metrics', '/status'])('refuses %s to a foreign Host (a rebound DNS name) with 421 and the error object', async (path) => {
    for (const host of ['attacker.example', `attacker.example:${port(fx.adminUrl)}`, `127.0.0.1.attacker.example:${port(fx.adminUrl)}`]) {
      const answer = await adminGet(fx.adminUrl, path, host);
      expect(answer.status).toBe(421);
      expect(JSON.parse(answer.body)).toEqual({ error: { code: 'misdirected_request', message: expect.stringContaining('ADMIN_ALLOWED_HOSTS') } });
    }
  });

  it('answers a scrape by a loopback name with any port', async () => {
    for (const host of [`127.0.0.1:${port(fx.adminUrl)}`, 'localhost', `[::1]:${port(fx.adminUrl)}`]) {
      const answer = await adminGet(fx.adminUrl, '/metrics', host);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatch(/^# TYPE catalog_http_request_duration_seconds histogram$/m);
    }
  });

  it('answers a host the operator lists in ADMIN_ALLOWED_HOSTS, and still refuses others', async () => {
    const svc = await another({ ADMIN_ALLOWED_HOSTS: 'catalog-1.internal, metrics.example' });
    expect((await adminGet(svc.adminUrl, '/metrics', 'catalog-1.internal:9464')).status).toBe(200);
    expect((await adminGet(svc.adminUrl, '/status', 'METRICS.example')).status).toBe(200);
    expect((await adminGet(svc.adminUrl, '/metrics', 'catalog-2.internal:9464')).status).toBe(421);
  });

  it('computes /status once for 20 callers at once: one round of store calls', async () => {
    /** Store calls the service itself counted (its client's request events and the driver's command monitoring). */
    const calls = async (): Promise<Record<string, number>> => {
      const text = await (await fetch(`${fx.adminUrl}/metrics`)).text();
      const count = (store: string, operation: string): number =>
        text
          .split('\n')
          .filter((l) => l.startsWith('catalog_store_call_duration_seconds_count{') && l.includes(`store="${store}"`) && l.includes(`operation="${operation}"`))
          .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
      return { health: count('elasticsearch', 'health'), count: count('elasticsearch', 'count'), ping: count('mongodb', 'ping') };
    };
    // Past the second a report of an earlier test is reused for.
    await new Promise((r) => setTimeout(r, 1_100));
    const before = await calls();
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${fx.adminUrl}/status`)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const after = await calls();
    expect(after.health - before.health).toBe(1);
    expect(after.count - before.count).toBe(1);
    expect(after.ping - before.ping).toBe(1);
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

describe('a request refused before its body is read', () => {
  interface Answer {
    status: number;
    connection: string | undefined;
    socket: Socket;
  }
  /** One request through `agent`, its answer read whole; an answer that does not come in 5 s fails it. */
  const send = (agent: Agent, base: string, method: string, path: string, body?: Buffer): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { agent, method, headers: body ? { 'Content-Type': 'application/json' } : {} }, (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket! }));
      });
      req.setTimeout(5_000, () => req.destroy(new Error(`no answer to ${method} ${path} within 5 s`)));
      req.once('error', reject);
      req.end(body);
    });
  const OVERSIZED = Buffer.alloc(2 * 1024 * 1024, 0x20);

  it.each([
    ['POST', '/mcp/public', 413],
    ['POST', '/api/public/markets', 405],
  ])('answers the next request on the same keep-alive connection after %s %s with a 2 MiB body is refused', async (method, path, status) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(agent, fx.url, method, path, OVERSIZED);
      expect(refused.status).toBe(status);
      const next = await send(agent, fx.url, 'GET', '/api/public/markets');
      expect(next.status).toBe(200);
      expect(next.socket).toBe(refused.socket);
    } finally {
      agent.destroy();
    }
  });

  it('closes the connection of a refused body declared larger than it drains', async () => {
    const s = connect(Number(new URL(fx.url).port), '127.0.0.1');
    const text = await new Promise<string>((resolve) => {
      let got = '';
      s.on('data', (d: Buffer) => (got += d.toString()));
      s.on('close', () => resolve(got));
      s.write(`POST /mcp/public HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1024 ** 3}\r\n\r\n{`);
    });
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/^connection: close\r$/im);
  });

  it('reads no more than its bound of a refused body of no declared length: past it the connection is cut', async () => {
    const s = connect(Number(new URL(fx.url).port), '127.0.0.1');
    let got = '';
    s.on('data', (d: Buffer) => (got += d.toString()));
    const closed = new Promise<void>((resolve) => s.once('close', () => resolve()));
    s.on('error', () => undefined);
    s.write('POST /mcp/public HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const size = 256 * 1024;
    const chunk = Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 0x20), Buffer.from('\r\n')]);
    let sent = 0;
    // Up to 64 MiB, far past the 8 MiB a refused body may cost: the copy must end it well before.
    while (!s.destroyed && sent < 64 * 1024 * 1024) {
      sent += size;
      if (!s.write(chunk)) await Promise.race([new Promise((r) => s.once('drain', r)), closed]);
    }
    await closed;
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
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
