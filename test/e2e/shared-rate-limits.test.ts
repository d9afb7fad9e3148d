/**
 * Rate limits hold across copies (docs/decisions.md, "Rate limits"): two service processes on the same stores share one
 * count per client through MongoDB, so one client's requests split across both get exactly the
 * configured number of 200s in a window, then 429 with Retry-After, from either copy: one after the
 * other or all at once, in the default bucket and in the availability overview's. While MongoDB is
 * frozen (SIGSTOP, local stack only) each copy counts in memory and still refuses past the limit.
 * Each test is its own client (X-Forwarded-For, one trusted proxy hop), so their counts never mix.
 *
 * @run-alone it freezes the shared MongoDB that every other file reads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startFixture, type Fixture } from '../support/fixture';
import { localStackPids, withFrozen } from '../support/local-stack';
import { createRateLimits } from '../../services/transports/rate-limit';
import { blockFor } from '../../services/transports/rate-blocks';
import { RATE_LIMITS_COLLECTION } from '../../services/kernel/store/collections';
import { jsonRpcOf } from '../support/json-rpc-answer';

const POINTS = 7;
const OVERVIEW_POINTS = 3;
let fx: Fixture;
const copies: Array<{ child: ChildProcess; url: string; adminUrl: string }> = [];
const pids = localStackPids();

/** A service process of its own (node + tsx, as `npm run serve`), on the fixture's stores. */
function serviceProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; adminUrl: string }> {
  const root = path.resolve(__dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'services/main.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a service process did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`a service process exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string; adminUrl?: string };
        if (entry.msg === 'catalog service listening' && entry.url && entry.adminUrl) {
          clearTimeout(timer);
          resolve({ child, url: entry.url, adminUrl: entry.adminUrl });
        }
      } catch {
        /* not a log line */
      }
    });
  });
}

let clientNo = 0;
/** A client address no other test uses. */
function newClient(): string {
  clientNo += 1;
  return `10.21.0.${clientNo}`;
}

async function get(url: string, client: string): Promise<{ status: number; retryAfter: string | null }> {
  const res = await fetch(url, { headers: { 'X-Forwarded-For': client } });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after') };
}

/** A copy's count of refusals in one bucket (catalog_rate_limit_refusals_total). */
async function refusals(url: string, bucket: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = new RegExp(`^catalog_rate_limit_refusals_total\\{bucket="${bucket}"\\} (\\d+)$`, 'm').exec(text);
  return line ? Number(line[1]) : 0;
}

beforeAll(async () => {
  fx = await startFixture({ homes: 20 });
  const env = {
    PORT: '0',
    ADMIN_PORT: '0',
    HOST: '127.0.0.1',
    MONGO_DB: fx.config.mongoDb,
    HOMES_ALIAS: fx.config.homesAlias,
    RATE_LIMIT_POINTS: String(POINTS),
    RATE_LIMIT_OVERVIEW_POINTS: String(OVERVIEW_POINTS),
    RATE_LIMIT_WINDOW_SECONDS: '120',
    TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'info',
  };
  copies.push(...(await Promise.all([serviceProcess(env), serviceProcess(env)])));
}, 120_000);

afterAll(async () => {
  for (const { child } of copies) child.kill('SIGTERM');
  await fx?.close();
});

describe('rate limits across two service processes', () => {
  it('give one client exactly the configured 200s in a window, split across both copies, then 429 with Retry-After from either', async () => {
    const client = newClient();
    const before = await Promise.all(copies.map(({ adminUrl }) => refusals(adminUrl, 'default')));
    const answers = [];
    for (let i = 0; i < POINTS + 4; i += 1) answers.push(await get(`${copies[i % 2].url}/api/public/policies-faq`, client));
    expect(answers.map((a) => a.status)).toEqual([...Array(POINTS).fill(200), ...Array(4).fill(429)]);
    for (const a of answers.slice(POINTS)) expect(Number(a.retryAfter)).toBeGreaterThan(0);

    // Each copy counted the refusals it answered (two each).
    const after = await Promise.all(copies.map(({ adminUrl }) => refusals(adminUrl, 'default')));
    expect(after.map((n, i) => n - before[i])).toEqual([2, 2]);
    for (const { adminUrl } of copies) {
      // A refusal is labelled with the route it refused, not as an unknown path.
      const text = await (await fetch(`${adminUrl}/metrics`)).text();
      expect(text).toMatch(/^catalog_http_request_duration_seconds_count\{method="GET",route="\/api\/public\/policies-faq",status="429"\} 2$/m);
    }
  });

  it('give a burst of concurrent requests split across both copies exactly the configured 200s, the rest 429', async () => {
    const client = newClient();
    const answers = await Promise.all(Array.from({ length: POINTS * 3 }, (_, i) => get(`${copies[i % 2].url}/api/public/tools.json`, client)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(POINTS);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual(Array(POINTS * 2).fill(429));
    for (const a of refused) expect(Number(a.retryAfter)).toBeGreaterThan(0);
  });

  it('count the availability overview in its own bucket: exactly its configured calls across both copies, then rate_limited from either', async () => {
    const client = newClient();
    const market = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const before = await Promise.all(copies.map(({ adminUrl }) => refusals(adminUrl, 'overview')));
    // Plain calls (no initialize: the server is stateless): each pays one default point at the door and
    // one overview point, so the default bucket (7) still has room after the five.
    const call = async (url: string, id: number) => {
      const res = await fetch(`${url}/mcp/public`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': client },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'availability_overview_tool', arguments: { market, per_page: 5 } } }),
      });
      return ((await jsonRpcOf(res)) as { result: { isError?: boolean; content: unknown } }).result;
    };
    const results = [];
    for (let i = 0; i < OVERVIEW_POINTS + 2; i += 1) results.push(await call(copies[i % 2].url, i + 1));
    expect(results.map((r) => Boolean(r.isError))).toEqual([...Array(OVERVIEW_POINTS).fill(false), true, true]);
    for (const r of results.slice(OVERVIEW_POINTS)) {
      const { error } = JSON.parse((r.content as Array<{ text: string }>)[0].text) as { error: { code: string; message: string } };
      expect(error.code).toBe('rate_limited');
      // The tool result's Retry-After: the wait in seconds, in the message.
      expect(Number(/retry in (\d+) s/.exec(error.message)?.[1])).toBeGreaterThan(0);
    }
    const after = await Promise.all(copies.map(({ adminUrl }) => refusals(adminUrl, 'overview')));
    expect(after.map((n, i) => n - before[i])).toEqual([1, 1]);
    // The default bucket is counted apart (it paid the five door points): the same client's ordinary reads are still served.
    expect((await get(`${copies[0].url}/api/public/tools.json`, client)).status).toBe(200);
  });

  (pids ? it : it.skip)('still refuse past the limit while MongoDB is frozen: each copy counts in memory and serves up to it', async () => {
    const client = newClient();
    const answers = await withFrozen(pids!.mongo, async () => {
      const out = [];
      for (let i = 0; i < POINTS + 3; i += 1) out.push(await get(`${copies[0].url}/api/public/tools.json`, client));
      return out;
    });
    expect(answers.map((a) => a.status)).toEqual([...Array(POINTS).fill(200), ...Array(3).fill(429)]);
    for (const a of answers.slice(POINTS)) expect(Number(a.retryAfter)).toBeGreaterThan(0);
  });

  it('take points from MongoDB in blocks at a larger limit: one copy gets exactly the limit, two together at most it and at most 2 × (block − 1) fewer', async () => {
    const points = 300;
    const block = blockFor(points);
    expect(block).toBeGreaterThan(1);
    const cfg = { points, overviewPoints: 20, staticPoints: 20, windowSeconds: 120, shared: true };
    const store = { client: fx.mongo.client, dbName: fx.config.mongoDb };
    const granted = async (limits: Array<ReturnType<typeof createRateLimits>>, client: string, tries: number): Promise<number> => {
      let n = 0;
      for (let i = 0; i < tries; i += 1)
        n += await limits[i % limits.length].consume(client, 'default').then(
          () => 1,
          () => 0,
        );
      return n;
    };
    const alone = newClient();
    expect(await granted([createRateLimits(cfg, { store })], alone, points + 10)).toBe(points);
    const split = newClient();
    const two = await granted([createRateLimits(cfg, { store }), createRateLimits(cfg, { store })], split, points + 20);
    expect(two).toBeLessThanOrEqual(points);
    expect(two).toBeGreaterThanOrEqual(points - 2 * (block - 1));
    // The shared count went up a block at a time: a store call per block, not per request.
    const counted = await fx.mongo.db.collection<{ key: string; points: number }>(RATE_LIMITS_COLLECTION).findOne({ key: `default:${split}` });
    expect(counted!.points % block).toBe(0);
  });

  it("hold a client's next request until the settlement of its last answer is counted, so that request is the one refused", async () => {
    const cfg = { points: 10, overviewPoints: 20, staticPoints: 20, windowSeconds: 120, shared: true };
    const limits = createRateLimits(cfg, { store: { client: fx.mongo.client, dbName: fx.config.mongoDb } });
    const client = newClient();
    await limits.consume(client, 'default');
    // The answer went out without waiting for its settlement: the next request arrives while it is being counted.
    const settled = limits.settle(client, 'default', cfg.points);
    await expect(limits.consume(client, 'default')).rejects.toMatchObject({ status: 429 });
    await settled;
  });
});
