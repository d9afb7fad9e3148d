/**
 * A store that hangs costs a request a bounded time (STORE_DEADLINE_MS): each local server is
 * frozen with SIGSTOP under requests; every answer comes within 3 s, a 503 with the error object
 * and Retry-After where the store was needed, /status names the degraded store, and after SIGCONT
 * the service answers fully again without a restart. Needs the local stack (its pids); with other
 * servers (ES_URL/MONGO_URL elsewhere, containers) there is nothing of ours to freeze.
 *
 * @run-alone it freezes the shared Elasticsearch and MongoDB that every other file reads.
 */
import { startFixture, type Fixture } from '../support/fixture';
import { localStackPids, withFrozen } from '../support/local-stack';

const pids = localStackPids();
const describeLocal = pids ? describe : describe.skip;
if (!pids) process.stderr.write('store-outage tests skipped: ES_URL/MONGO_URL are not the local stack\n');

let fx: Fixture;
let slug: string;
let market: string;

beforeAll(async () => {
  if (!pids) return;
  fx = await startFixture({ homes: 40 });
  const home = await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null });
  slug = home!.slug;
  market = home!.market_slug;
  // Warm the caches and connections as a running service would have them.
  await fx.get('/api/public/markets');
  await fx.get(`/api/public/homes/${slug}`);
});

afterAll(async () => {
  await fx?.close();
});

interface Answer {
  path: string;
  status: number;
  ms: number;
  body: any;
  retryAfter: string | null;
}

async function timedGet(p: string): Promise<Answer> {
  const t = Date.now();
  const res = await fx.get(p);
  return { path: p, status: res.status, ms: Date.now() - t, body: res.body, retryAfter: res.headers.get('retry-after') };
}

/** The admin port's whole status report (each store's health): the public one says only ok or degraded. */
async function adminStatus(): Promise<Answer> {
  const t = Date.now();
  const res = await fetch(`${fx.adminUrl}/status`);
  return { path: '/status (admin)', status: res.status, ms: Date.now() - t, body: await res.json(), retryAfter: res.headers.get('retry-after') };
}

async function untilHealthy(paths: string[], withinMs = 20_000): Promise<Answer[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answers = await Promise.all(paths.map(timedGet));
    if (answers.every((a) => a.status === 200) || Date.now() > deadline) return answers;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function expectUnavailable(a: Answer): void {
  expect(a.status).toBe(503);
  expect(a.body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });
  expect(Number(a.retryAfter)).toBeGreaterThan(0);
}

describeLocal('a frozen store (SIGSTOP)', () => {
  it('MongoDB: apartment reads and quotes answer 503 within 3 s, /status names mongodb, and all recovers after SIGCONT', async () => {
    const day = (n: number): string => new Date(Date.parse(`${fx.today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const answers = await withFrozen(pids!.mongo, () =>
      Promise.all([
        timedGet(`/api/public/homes/${slug}`),
        timedGet(`/api/public/homes/${slug}-unknown`),
        timedGet(`/api/public/homes/${slug}/quote?check_in=${day(10)}&check_out=${day(45)}`),
        timedGet(`/api/public/homes/${slug}/flex-options`),
        timedGet('/api/public/status'),
        timedGet('/readyz'),
        timedGet('/livez'),
        // Needs no MongoDB (the market list is cached): served, its rate limit counted in memory meanwhile.
        timedGet('/api/public/markets'),
        adminStatus(),
      ]),
    );
    for (const a of answers) expect(a.ms).toBeLessThan(3_000);
    for (const a of answers.slice(0, 4)) expectUnavailable(a);
    // Readiness names the store, without its host or the driver's words; liveness stays 200.
    expectUnavailable(answers[5]);
    expect(answers[5].body.error.message).toMatch(/mongodb/);
    expect(answers[5].body.error.message).not.toMatch(/elasticsearch|127\.0\.0\.1|Mongo[A-Z]\w+Error/);
    expect(answers[6].status).toBe(200);
    expect(answers[7].status).toBe(200);
    const status = answers[4];
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('degraded');
    const full = answers[8];
    expect(full.body.mongodb.ok).toBe(false);
    expect(JSON.stringify(full.body.mongodb)).not.toMatch(/127\.0\.0\.1|Mongo[A-Z]\w+Error/);

    const after = await untilHealthy([`/api/public/homes/${slug}`, '/api/public/status', '/readyz']);
    expect(after.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(after[1].body.status).toBe('ok');
  });

  it('Elasticsearch: searches answer 503 within 3 s, the markets listing kept for the generation still answers, /status names elasticsearch, and all recovers after SIGCONT', async () => {
    // A readiness answer is shared for a second (transports/http/readiness-cache.ts): the last test's healthy one must age out first.
    await new Promise((r) => setTimeout(r, 1_100));
    const listed = await fx.get('/api/public/markets');
    const answers = await withFrozen(pids!.es, () =>
      Promise.all([
        timedGet(`/api/public/search?market=${market}`),
        timedGet(`/api/public/search?market=${market}&bedrooms=1`),
        timedGet('/api/public/status'),
        timedGet('/readyz'),
        adminStatus(),
        timedGet('/api/public/markets?state=NY'),
        timedGet('/api/public/markets'),
      ]),
    );
    expectUnavailable(answers[3]);
    expect(answers[3].body.error.message).toMatch(/elasticsearch/);
    expect(answers[3].body.error.message).not.toMatch(/mongodb|127\.0\.0\.1/);
    for (const a of answers) expect(a.ms).toBeLessThan(3_000);
    expectUnavailable(answers[0]);
    expectUnavailable(answers[1]);
    expect(answers[2].status).toBe(200);
    expect(answers[2].body.status).toBe('degraded');
    expect(answers[4].body.elasticsearch.ok).toBe(false);
    // The listing is read once per index generation for every request (search/markets/market-searches.ts): the
    // generation (MongoDB) has not moved, so what search showed under it is still the answer.
    expect(answers[6].status).toBe(200);
    expect(answers[6].body).toEqual(listed.body);
    expect(answers[5].status).toBe(200);

    const after = await untilHealthy([`/api/public/search?market=${market}`, '/api/public/status', '/readyz']);
    expect(after.map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it('answers MCP tool calls with an isError result carrying service_unavailable while MongoDB is frozen', async () => {
    const client = await fx.mcp();
    const t = Date.now();
    const result = await withFrozen(pids!.mongo, () => client.callTool({ name: 'get_flex_options_tool', arguments: { home_slug: slug } }));
    expect(Date.now() - t).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ type: string; text: string }>)[0].text;
    expect(JSON.parse(text).error.code).toBe('service_unavailable');
    const again = await client.callTool({ name: 'get_flex_options_tool', arguments: { home_slug: slug } });
    expect(again.isError).toBeFalsy();
  });
});
