/**
 * Two indexer workers on the same stores, racing: each runs the incremental run with the watch
 * matching and the webhook sending as indexer/worker.ts composes them (services/watch-matcher.ts, its
 * own clients), started at the same instant after each round of inventory changes. The lease decides
 * which one matches and sends: the receiver gets every recorded change, each webhook-id exactly once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFixture, busiestCity, type Fixture } from '../support/fixture';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { createLogger } from '../../services/kernel/logger';
import { openWatchMatcher, type WatchMatcher } from '../../services/watch-matcher';
import { runIndexerJob } from '../../indexer/runner';
import { LeaseHeldError } from '../../indexer/lease';
import { readChangeRanges } from '../../services/watches/store';

let fx: Fixture;
let city: string;
let receiver: Server;
let base: string;
const received: string[] = [];
const workers: WatchMatcher[] = [];

beforeAll(async () => {
  fx = await startFixture({ homes: 40, seed: 3, env: { WATCH_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  city = await busiestCity(fx);
  // A receiver that takes a moment to answer: a second sender, if there were one, would overlap it.
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      setTimeout(() => res.writeHead(200).end(), 20);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const log = createLogger('silent', 'indexer');
  workers.push(await openWatchMatcher(fx.config, log), await openWatchMatcher(fx.config, log));
});
afterAll(async () => {
  for (const w of workers) await w.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await fx?.close();
});

/** One worker's incremental run as its schedule starts it; a run refused by the lease is skipped, as the schedule skips it. */
async function workerRun(worker: WatchMatcher): Promise<'ran' | 'lease held'> {
  try {
    await runIndexerJob('incremental', fx.es, fx.mongo.collections, fx.config, {
      onWriting: (ids, written, indexed) => worker.onWriting(ids, written, indexed),
      afterIncremental: () => worker.sendDue(),
    });
    return 'ran';
  } catch (err) {
    if (err instanceof LeaseHeldError) return 'lease held';
    throw err;
  }
}

describe('two workers', () => {
  it('send each webhook exactly once: the lease decides the sender', async () => {
    const watchIds: string[] = [];
    for (const [i, search] of [{ market: city }, { market: city, min_bedrooms: 2 }, { market: city, max_price: 5000, price_unit: 'per_month' }].entries()) {
      const res = await fetch(`${fx.url}/api/public/watches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ search, email: `racer-${i}@example.com`, guest_consent: true, webhook_url: `${base}/hook-${i}` }),
      });
      expect(res.status).toBe(201);
      watchIds.push(((await res.json()) as { watch_id: string }).watch_id);
    }
    const homes = await fx.mongo.collections.homes.find({ city_slug: city, published: true, deleted_at: null }).limit(6).toArray();
    const outcomes = new Set<string>();
    for (let round = 0; round < 4; round++) {
      for (const [i, home] of homes.entries()) {
        // Homes leave and come back, and drop in price, in turn.
        const set =
          (i + round) % 3 === 0 ? { published: round % 2 === 1 } : { monthly_rate_cents: Math.round(home.monthly_rate_cents * (round % 2 ? 1 : 0.8)) };
        await fx.mongo.collections.homes.updateOne({ _id: home._id }, { $set: { ...set, updated_at: new Date() } });
      }
      await recordChanges(fx.mongo.collections.inventoryChanges, 'test', { homes: homes.map((h) => h._id) });
      // Both at the same instant, twice: the second pair finds nothing left to match but sends what is due.
      for (let pair = 0; pair < 2; pair++) for (const o of await Promise.all(workers.map(workerRun))) outcomes.add(o);
    }
    // The race happened: a worker was refused the lease while the other held it.
    expect(outcomes).toEqual(new Set(['ran', 'lease held']));

    const counted = await fx.mongo.collections.watches.find({ _id: { $in: watchIds } }).toArray();
    const recorded = (
      await readChangeRanges(
        fx.mongo.collections,
        counted.map((w) => ({ watchId: w._id, from: 1, to: w.changes })),
      )
    ).map((c) => c._id);
    expect(recorded.length).toBeGreaterThan(5);
    expect([...received].sort()).toEqual([...recorded].sort());
    expect(new Set(received).size).toBe(received.length);
  });
});
