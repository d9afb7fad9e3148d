/**
 * Client identity at the balancer: the rate-limit key is the client's own address, which no client
 * can choose. Through the real HAProxy with the repository's configuration (ops/haproxy.cfg), a
 * forged X-Forwarded-For does not change the key; without a balancer, the header is not believed.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { haproxy, type LoadBalancer } from '../chaos/fleet';
import { freePort } from '../support/free-port';
import { startFixture, type Fixture } from '../support/fixture';

const POINTS = 3;
const LIMITED = { RATE_LIMIT_POINTS: String(POINTS), RATE_LIMIT_SHARED: 'false', RATE_LIMIT_WINDOW_SECONDS: '300' };

async function statusOf(url: string, forwardedFor: string): Promise<number> {
  const res = await fetch(`${url}/api/public/policies-faq`, { headers: { 'X-Forwarded-For': forwardedFor } });
  await res.arrayBuffer();
  return res.status;
}

describe('the client behind the balancer (ops/haproxy.cfg, TRUSTED_PROXIES)', () => {
  let fx: Fixture;
  let lb: LoadBalancer;

  beforeAll(async () => {
    fx = await startFixture({ homes: 5, env: { ...LIMITED, TRUSTED_PROXIES: 'loopback' } });
    const port = Number(new URL(fx.url).port);
    lb = haproxy(await freePort(), [port, port], path.join(tmpdir(), `catalog-lb-${randomBytes(4).toString('hex')}.sock`));
    await lb.start();
  }, 120_000);

  afterAll(async () => {
    await lb?.kill('SIGTERM');
    await fx?.close();
  });

  it('keys a client by the address the balancer saw, whatever X-Forwarded-For it forges', async () => {
    const answers = [];
    // Each request claims to come from somewhere else; all of them come from this test's address.
    for (let i = 1; i <= POINTS + 2; i++) answers.push(await statusOf(lb.url, `203.0.113.${i}`));
    expect(answers).toEqual([...Array(POINTS).fill(200), 429, 429]);
  });
});

describe('the client without a balancer (TRUSTED_PROXIES unset)', () => {
  let fx: Fixture;

  beforeAll(async () => {
    fx = await startFixture({ homes: 5, env: LIMITED });
  }, 120_000);

  afterAll(async () => {
    await fx?.close();
  });

  it('ignores X-Forwarded-For from a peer that is not a configured proxy', async () => {
    const answers = [];
    for (let i = 1; i <= POINTS + 1; i++) answers.push(await statusOf(fx.url, `198.51.100.${i}`));
    expect(answers).toEqual([...Array(POINTS).fill(200), 429]);
  });
});
