/**
 * A client's points taken from the shared count in blocks: a copy of the service adds a block of
 * points to the client's count in MongoDB at once and hands them out from memory, so most requests
 * wait for no store (docs/decisions.md, "Rate limits"). The shared count always holds at least what
 * every copy handed out, so the copies together never allow more than the limit; a copy's unused
 * points of a block are counted without being used, so a client spread over N copies may be refused
 * up to N × (block − 1) requests early, never late. A refusal is remembered until the count's window
 * ends, so a client over its limit costs no store call either.
 */
import { RateLimiterRes } from 'rate-limiter-flexible';

/** The shared count of one bucket (rate-limiter-flexible's store limiters). */
export interface SharedCount {
  /** Adds `points` to the key's count in its window: the count after, or a rejection with it once the count passed the limit. */
  consume(key: string, points: number): Promise<RateLimiterRes>;
}

/** The largest block: a copy never holds more unused points than this per client. */
export const MAX_BLOCK = 20;

/** A block small beside the limit (a fiftieth of it, at most MAX_BLOCK): 6 points at the default 300 a minute, 1 under 100. */
export function blockFor(points: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(points / 50)));
}

interface Lease {
  /** Points of the current block not handed out yet. */
  left: number;
  /** When the count's window ends (the block's points are void after it). */
  until: number;
  /** The count reached the limit with this block: once its points are gone, refuse until the window ends. */
  spent: boolean;
  /** Until when the client is over its limit (no store call before). */
  refusedUntil: number;
  /** Requests of this client waiting for points: the next block is at least this large. */
  waiting: number;
  /** The block being taken, which every request that found the lease empty waits for. */
  refill?: Promise<void>;
}

export class BlockCounter {
  private readonly leases = new Map<string, Lease>();
  private sweptAt = 0;

  /**
   * `waitMs`: how long one request may wait for points, store calls included (a burst larger than
   * a block may need a second one); past it, take() fails as a store failure does, and the caller
   * counts in memory.
   */
  constructor(
    private readonly count: SharedCount,
    private readonly limit: number,
    private readonly block: number,
    private readonly waitMs = Infinity,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `points` for `key` (a request's weight), one at a time from the leased blocks: resolves, or rejects
   * with a RateLimiterRes (over the limit) or another error (the store failed or was too slow). Points
   * taken before a refusal stay counted: a refusal is early, never late.
   */
  async take(key: string, points = 1): Promise<void> {
    for (let i = 0; i < points; i++) await this.takeOne(key);
  }

  private async takeOne(key: string): Promise<void> {
    const started = this.now();
    for (;;) {
      const t = this.now();
      this.sweep(t);
      const lease = this.leaseOf(key);
      if (lease.refusedUntil > t) throw new RateLimiterRes(0, lease.refusedUntil - t, this.limit + 1, false);
      if (lease.until > t) {
        if (lease.left > 0) {
          lease.left -= 1;
          return;
        }
        // The count is used up for this window: refused without asking the store again.
        if (lease.spent) {
          lease.refusedUntil = lease.until;
          continue;
        }
      }
      if (t - started >= this.waitMs) throw new Error(`no rate-limit points within ${this.waitMs} ms`);
      lease.waiting += 1;
      try {
        lease.refill ??= this.refill(key, lease).finally(() => {
          lease.refill = undefined;
        });
        await lease.refill;
      } finally {
        lease.waiting -= 1;
      }
    }
  }

  /** The clients a copy holds points or a refusal for (tests, metrics). */
  get size(): number {
    return this.leases.size;
  }

  private leaseOf(key: string): Lease {
    let lease = this.leases.get(key);
    if (!lease) {
      lease = { left: 0, until: 0, spent: false, refusedUntil: 0, waiting: 0 };
      this.leases.set(key, lease);
    }
    return lease;
  }

  private async refill(key: string, lease: Lease): Promise<void> {
    // The requests that arrive in the same turn of the event loop (a burst) wait for this block too:
    // it is sized for them all, so one store call serves them.
    await Promise.resolve();
    const n = Math.max(this.block, lease.waiting);
    let res: RateLimiterRes;
    let refused = false;
    try {
      res = await this.count.consume(key, n);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      res = err;
      refused = true;
    }
    const t = this.now();
    // The points of this block under the limit: all of them, or those added before the count passed
    // it; none when the store refused without counting them (a refusal it remembers itself).
    const granted = refused && res.consumedPoints <= this.limit ? 0 : Math.min(n, Math.max(0, this.limit - (res.consumedPoints - n)));
    // At least a millisecond, so the requests waiting for this block take its points even when the
    // window ends now (they count in the window the store counted them in).
    const until = t + Math.max(1, res.msBeforeNext);
    lease.spent = res.consumedPoints >= this.limit;
    if (granted === 0) {
      lease.left = 0;
      lease.refusedUntil = until;
      throw res;
    }
    lease.left = granted;
    lease.until = until;
  }

  /** Forgets clients whose window ended, once per second at most. */
  private sweep(t: number): void {
    if (t - this.sweptAt < 1_000) return;
    this.sweptAt = t;
    for (const [key, lease] of this.leases) {
      if (lease.until <= t && lease.refusedUntil <= t && !lease.refill) this.leases.delete(key);
    }
  }
}
