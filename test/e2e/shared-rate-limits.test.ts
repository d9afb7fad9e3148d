/**
 * Rate limits hold across copies (issue 21 §3): two service processes on the same stores share one
 * count per client through MongoDB, so one client's requests split across both get exactly the
 * configured number of 200s in a window, then 429 with Retry-After, from either copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startFixture, type Fixture } from '../support/fixture';

const POINTS = 7;
let fx: Fixture;
const copies: Array<{ child: ChildProcess; url: string }> = [];

/** A service process of its own (node + tsx, as `npm run serve`), on the fixture's stores. */
function serviceProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
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
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'catalog service listening' && entry.url) {
          clearTimeout(timer);
          resolve({ child, url: entry.url });
        }
      } catch {
        /* not a log line */
      }
    });
  });
}

beforeAll(async () => {
  fx = await startFixture({ homes: 20 });
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_DB: fx.config.mongoDb,
    HOMES_ALIAS: fx.config.homesAlias,
    RATE_LIMIT_POINTS: String(POINTS),
    RATE_LIMIT_WINDOW_SECONDS: '120',
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
    const statuses: number[] = [];
    const retryAfter: Array<string | null> = [];
    for (let i = 0; i < POINTS + 4; i += 1) {
      const res = await fetch(`${copies[i % 2].url}/api/public/policies-faq`);
      await res.arrayBuffer();
      statuses.push(res.status);
      retryAfter.push(res.headers.get('retry-after'));
    }
    expect(statuses).toEqual([...Array(POINTS).fill(200), ...Array(4).fill(429)]);
    for (const r of retryAfter.slice(POINTS)) expect(Number(r)).toBeGreaterThan(0);

    // Each copy counted the refusals it answered (two each).
    for (const { url } of copies) {
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(text).toMatch(/^catalog_rate_limit_refusals_total\{bucket="default"\} 2$/m);
      // A refusal is labelled with the route it refused, not as an unknown path.
      expect(text).toMatch(/^catalog_http_request_duration_seconds_count\{method="GET",route="\/api\/public\/policies-faq",status="429"\} 2$/m);
    }
  });
});
