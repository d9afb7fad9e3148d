/**
 * Points taken from the shared count in blocks (services/transports/rate-blocks.ts): copies together
 * never allow more than the limit in a window, refuse at most copies × (block − 1) early, call the
 * store once per block (once for requests waiting together), and remember a refusal until the
 * window ends. The shared count here models rate-limiter-flexible's store limiters (a fixed window
 * opened by the first point, every consume added, refused past the limit); the real one is tested
 * through two service processes on the real MongoDB (test/e2e/shared-rate-limits.test.ts).
 */
import fc from 'fast-check';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { BlockCounter, blockFor, MAX_BLOCK, type SharedCount } from '../../../services/transports/rate-blocks';
import { runs } from '../../support/property-runs';

class WindowCount implements SharedCount {
  calls = 0;
  failing = false;
  /** How long each store call takes, on the test's clock. */
  delayMs = 0;
  private readonly windows = new Map<string, { points: number; expires: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: { t: number },
  ) {}
  async consume(key: string, n: number): Promise<RateLimiterRes> {
    this.calls += 1;
    await Promise.resolve();
    this.clock.t += this.delayMs;
    if (this.failing) throw new Error('store down');
    let w = this.windows.get(key);
    if (!w || w.expires <= this.clock.t) {
      w = { points: 0, expires: this.clock.t + this.windowMs };
      this.windows.set(key, w);
    }
    w.points += n;
    const res = new RateLimiterRes(Math.max(0, this.limit - w.points), w.expires - this.clock.t, w.points, w.points === n);
    if (w.points > this.limit) throw res;
    return res;
  }
}

async function outcome(p: Promise<void>): Promise<'granted' | 'refused' | 'failed'> {
  try {
    await p;
    return 'granted';
  } catch (err) {
    return err instanceof RateLimiterRes ? 'refused' : 'failed';
  }
}

describe('BlockCounter', () => {
  it('sizes a block at a fiftieth of the limit, between 1 and MAX_BLOCK', () => {
    expect(blockFor(7)).toBe(1);
    expect(blockFor(99)).toBe(1);
    expect(blockFor(300)).toBe(6);
    expect(blockFor(1_000_000_000)).toBe(MAX_BLOCK);
  });

  it('lets copies sharing one count allow at most the limit in a window, and at most copies × (block − 1) fewer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 150 }),
        async (limit, block, copies, order) => {
          const clock = { t: 0 };
          const count = new WindowCount(limit, 60_000, clock);
          const counters = Array.from({ length: copies }, () => new BlockCounter(count, limit, block, Infinity, () => clock.t));
          let granted = 0;
          for (const copy of order) if ((await outcome(counters[copy % copies].take('client'))) === 'granted') granted += 1;
          expect(granted).toBeLessThanOrEqual(limit);
          if (order.length >= limit + copies * block) expect(granted).toBeGreaterThanOrEqual(limit - copies * (block - 1));
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('gives one copy exactly the limit, whatever the block', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(23, 60_000, clock);
    const counter = new BlockCounter(count, 23, 6, Infinity, () => clock.t);
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await outcome(counter.take('client')));
    expect(answers).toEqual([...Array(23).fill('granted'), ...Array(7).fill('refused')]);
    // Three whole blocks and a fourth of which 5 points fit; the count is then known to be spent.
    expect(count.calls).toBe(4);
  });

  it('never grants more than the limit to requests started together on two copies', async () => {
    for (const [limit, block] of [
      [6, 4],
      [7, 3],
      [20, 6],
      [2, 5],
    ]) {
      const clock = { t: 0 };
      const count = new WindowCount(limit, 60_000, clock);
      const copies = [new BlockCounter(count, limit, block, Infinity, () => clock.t), new BlockCounter(count, limit, block, Infinity, () => clock.t)];
      const answers = await Promise.all(Array.from({ length: 3 * block + limit + 1 }, (_, i) => outcome(copies[i % 2].take('client'))));
      const granted = answers.filter((a) => a === 'granted').length;
      expect(granted).toBeLessThanOrEqual(limit);
      expect(granted).toBeGreaterThanOrEqual(limit - 2 * (block - 1));
      expect(answers.filter((a) => a === 'failed')).toHaveLength(0);
    }
  });

  it('serves a burst larger than a block with one store call', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(1_000, 60_000, clock);
    const counter = new BlockCounter(count, 1_000, 2, Infinity, () => clock.t);
    const burst = await Promise.all(Array.from({ length: 10 }, () => outcome(counter.take('client'))));
    expect(burst).toEqual(Array(10).fill('granted'));
    expect(count.calls).toBe(1);
  });

  it('fails a request that waited past its time for points, so the caller counts in memory', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(1_000, 60_000, clock);
    count.delayMs = 300;
    const counter = new BlockCounter(count, 1_000, 1, 250, () => clock.t);
    const first = outcome(counter.take('client'));
    // These arrive while the first block is on its way: they need another, and have waited 300 ms by then.
    while (count.calls === 0) await Promise.resolve();
    const late = [outcome(counter.take('client')), outcome(counter.take('client'))];
    expect(await first).toBe('granted');
    expect(await Promise.all(late)).toEqual(['failed', 'failed']);
  });

  it('calls the store once per block, and once for the requests that wait together for a block', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(1_000, 60_000, clock);
    const counter = new BlockCounter(count, 1_000, 6, Infinity, () => clock.t);
    for (let i = 0; i < 60; i++) await counter.take('client');
    expect(count.calls).toBe(10);
    const burst = await Promise.all(Array.from({ length: 6 }, () => outcome(counter.take('burst'))));
    expect(burst).toEqual(Array(6).fill('granted'));
    expect(count.calls).toBe(11);
  });

  it('remembers a refusal until the window ends, without calling the store, then grants again', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(3, 10_000, clock);
    const counter = new BlockCounter(count, 3, 1, Infinity, () => clock.t);
    for (let i = 0; i < 3; i++) expect(await outcome(counter.take('client'))).toBe('granted');
    expect(await outcome(counter.take('client'))).toBe('refused');
    const calls = count.calls;
    clock.t = 9_000;
    await expect(counter.take('client')).rejects.toMatchObject({ msBeforeNext: 1_000 });
    expect(count.calls).toBe(calls);
    clock.t = 10_000;
    expect(await outcome(counter.take('client'))).toBe('granted');
  });

  it('voids the points left of a block when its window ends', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(10, 10_000, clock);
    const counter = new BlockCounter(count, 10, 5, Infinity, () => clock.t);
    await counter.take('client');
    clock.t = 10_000;
    await counter.take('client');
    expect(count.calls).toBe(2);
  });

  it('passes a store failure to every request waiting for the block, and asks the store again on the next one', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(100, 60_000, clock);
    const counter = new BlockCounter(count, 100, 2, Infinity, () => clock.t);
    count.failing = true;
    expect(await Promise.all([outcome(counter.take('client')), outcome(counter.take('client'))])).toEqual(['failed', 'failed']);
    count.failing = false;
    expect(await outcome(counter.take('client'))).toBe('granted');
  });

  it('forgets the clients whose window ended', async () => {
    const clock = { t: 0 };
    const count = new WindowCount(100, 10_000, clock);
    const counter = new BlockCounter(count, 100, 2, Infinity, () => clock.t);
    for (let i = 0; i < 50; i++) await counter.take(`client-${i}`);
    expect(counter.size).toBe(50);
    clock.t = 20_000;
    await counter.take('another');
    expect(counter.size).toBe(1);
  });
});
