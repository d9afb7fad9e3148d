/**
 * The watches' webhooks on real HTTP: a receiver in the test verifies each Standard Webhooks signature
 * with the secret the watch returned once, sees a change answered 500 sent again after its backoff
 * (the same webhook-id, before any later change: in order), the end of the watch after it answers
 * 410, and a redirect not followed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startFixture, busiestCity, type Fixture } from '../support/fixture';
import { appendChanges } from '../../services/watches/store';
import { sendDueWebhooks } from '../../services/watches/webhook-sender';

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

let fx: Fixture;
let city: string;
let receiver: Server;
let base: string;
const received: Received[] = [];
/** The statuses the receiver answers, in turn, per path (then 200). */
const answers = new Map<string, number[]>();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => resolve(body));
  });
}

beforeAll(async () => {
  fx = await startFixture({ homes: 40, env: { WATCH_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  city = await busiestCity(fx);
  receiver = createServer((req, res) => {
    void readBody(req).then((body) => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers as Record<string, string>, body });
      const status = answers.get(path)?.shift() ?? 200;
      if (status === 302) res.writeHead(302, { location: `${base}/private-target` }).end();
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await fx?.close();
});

async function watchWithHook(path: string, email: string): Promise<{ watch_id: string; token: string; webhook_secret: string }> {
  const res = await fetch(`${fx.url}/api/public/watches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ search: { market: city }, email, guest_consent: true, webhook_url: `${base}${path}` }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { watch_id: string; token: string; webhook_secret: string };
}

const left = (slug: string) => ({ kind: 'left' as const, home_slug: slug, price: null, card: null });
const at = (ms: number) => () => new Date(Date.now() + ms);

describe('watch webhooks', () => {
  it('signs each change, retries one answered 500 after its backoff, and keeps the order', async () => {
    const w = await watchWithHook('/hook-a', 'hook-a@example.com');
    answers.set('/hook-a', [500]);
    await appendChanges(fx.mongo.collections, w.watch_id, [left('one'), left('two'), left('three')], new Date());
    await sendDueWebhooks(fx.svc.deps, at(0));
    // Still inside the backoff: nothing is sent.
    await sendDueWebhooks(fx.svc.deps, at(1_000));
    await sendDueWebhooks(fx.svc.deps, at(10_000));
    const mine = received.filter((r) => r.path === '/hook-a');
    expect(mine.map((r) => r.headers['webhook-id'])).toEqual([`${w.watch_id}.1`, `${w.watch_id}.1`, `${w.watch_id}.2`, `${w.watch_id}.3`]);
    const hook = new Webhook(w.webhook_secret);
    for (const r of mine) {
      const payload = hook.verify(r.body, r.headers) as { watch_id: string; data: { change_id: string; kind: string } };
      expect(payload.watch_id).toBe(w.watch_id);
      expect(payload.data.change_id).toBe(r.headers['webhook-id']);
    }
    // A signature made with another secret is refused by the receiver's check.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(mine[0].body, mine[0].headers)).toThrow();
    expect(await fx.mongo.collections.watchOutbox.countDocuments({ _id: w.watch_id })).toBe(0);
  });

  it('ends the watch when its receiver answers 410', async () => {
    const w = await watchWithHook('/hook-gone', 'hook-gone@example.com');
    answers.set('/hook-gone', [410]);
    await appendChanges(fx.mongo.collections, w.watch_id, [left('one'), left('two')], new Date());
    await sendDueWebhooks(fx.svc.deps, at(0));
    expect(received.filter((r) => r.path === '/hook-gone')).toHaveLength(1);
    expect((await fx.get(`/api/public/watches/${w.token}/changes`)).status).toBe(404);
    expect((await fx.mongo.collections.watches.findOne({ _id: w.watch_id }))?.ended_reason).toBe('webhook_gone');
  });

  it('does not follow a redirect: the change stays undelivered and the target gets nothing', async () => {
    const w = await watchWithHook('/hook-redirect', 'hook-redirect@example.com');
    answers.set('/hook-redirect', [302]);
    await appendChanges(fx.mongo.collections, w.watch_id, [left('one')], new Date());
    await sendDueWebhooks(fx.svc.deps, at(0));
    expect(received.filter((r) => r.path === '/private-target')).toEqual([]);
    expect((await fx.mongo.collections.watches.findOne({ _id: w.watch_id }))?.delivered).toBe(0);
    expect((await fx.mongo.collections.watchOutbox.findOne({ _id: w.watch_id }))?.attempts).toBe(1);
  });
});
