/**
 * Per-client rate limits (rate-limiter-flexible). The availability overview has a smaller bucket
 * (docs/contract.md, availability_overview_tool rule 5). Every copy of the service shares the counts through MongoDB (a store every copy
 * already has; collection `rate_limits`), so N copies allow what one does. While MongoDB does not
 * answer within RATE_LIMIT_STORE_WAIT_MS, each copy counts on its own, in memory, and requests keep
 * being served (docs/decisions.md, "Rate limits"). A copy takes a client's points from the shared
 * count in small blocks (./rate-blocks.ts), so most requests wait for no store.
 */
import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../kernel/config';

/** What the buckets are made of (the settlement's rate is the settling middleware's). */
type BucketConfig = Omit<RateLimitConfig, 'esMsPerPoint'>;
import { ApiError } from '../kernel/errors';
import { RATE_LIMITS_COLLECTION } from '../kernel/store/collections';
import { within } from '../kernel/within';
import { BlockCounter, blockFor } from './rate-blocks';

/** `static`: the page's files and photos, apart from the API's budget (../kernel/config.ts, staticPoints). */
export type RateBucket = 'default' | 'overview' | 'static';

export interface RateLimits {
  /** Takes `points` (a request's weight, ../tools/tool.ts `cost`) from the client's bucket, or throws the 429 ApiError. */
  consume(clientKey: string, bucket: RateBucket, points?: number): Promise<void>;
  /**
   * Adds what an answered request owes beyond its admitted weight (./settled-cost.ts): the points are
   * counted even past the limit, so the client's next request is the one refused (it waits for a
   * settlement still being counted); never throws a refusal.
   */
  settle(clientKey: string, bucket: RateBucket, points: number): Promise<void>;
}

/** How long a request waits for the shared count before it is counted in memory instead. */
export const RATE_LIMIT_STORE_WAIT_MS = 250;

export interface RateLimitOptions {
  /** The shared store; without one (unit tests, tools) each process counts alone. */
  store?: { client: MongoClient; dbName: string };
  onRefused?: (bucket: RateBucket) => void;
  /** Told when the shared store failed and memory counted instead. */
  onStoreFailure?: (err: unknown) => void;
}

function limiters<L>(cfg: BucketConfig, make: (keyPrefix: string, points: number) => L): Record<RateBucket, L> {
  return { default: make('default', cfg.points), overview: make('overview', cfg.overviewPoints), static: make('static', cfg.staticPoints) };
}

export function createRateLimits(cfg: BucketConfig, opts: RateLimitOptions = {}): RateLimits {
  const memory = limiters(cfg, (keyPrefix, points) => new RateLimiterMemory({ keyPrefix, points, duration: cfg.windowSeconds }));
  const store = opts.store;
  const shared = store
    ? limiters(cfg, (keyPrefix, points) => {
        const count = new RateLimiterMongo({
          storeClient: store.client,
          dbName: store.dbName,
          tableName: RATE_LIMITS_COLLECTION,
          keyPrefix,
          points,
          duration: cfg.windowSeconds,
          // ensureIndexes (kernel/store/collections.ts) makes them at start.
          disableIndexesCreation: true,
        });
        return new BlockCounter(
          { consume: (key, n) => within(count.consume(key, n), RATE_LIMIT_STORE_WAIT_MS) },
          points,
          blockFor(points),
          RATE_LIMIT_STORE_WAIT_MS,
        );
      })
    : null;

  async function take(bucket: RateBucket, clientKey: string, points: number): Promise<void> {
    if (!shared) {
      await memory[bucket].consume(clientKey, points);
      return;
    }
    try {
      await shared[bucket].take(clientKey, points);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw err;
      // The insurance: MongoDB is slow or gone, so this copy counts on its own until it is back.
      opts.onStoreFailure?.(err);
      await memory[bucket].consume(clientKey, points);
    }
  }

  /**
   * Settlements still being counted, by bucket and client: an answer is sent without waiting for its
   * settlement (a shared count is a MongoDB write), and the client's next request waits for it instead,
   * so that request is still the one refused.
   */
  const settling = new Map<string, Promise<void>>();
  const settlingKey = (bucket: RateBucket, clientKey: string): string => `${bucket}\u0000${clientKey}`;

  return {
    settle(clientKey, bucket, points) {
      if (points <= 0) return Promise.resolve();
      const key = settlingKey(bucket, clientKey);
      const counted = (settling.get(key) ?? Promise.resolve()).then(async () => {
        try {
          await take(bucket, clientKey, points);
        } catch (res) {
          if (!(res instanceof RateLimiterRes)) throw res;
        }
      });
      const tracked: Promise<void> = counted
        .catch(() => undefined)
        .finally(() => {
          if (settling.get(key) === tracked) settling.delete(key);
        });
      settling.set(key, tracked);
      return counted;
    },
    async consume(clientKey, bucket, points = 1) {
      await settling.get(settlingKey(bucket, clientKey));
      try {
        await take(bucket, clientKey, points);
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        opts.onRefused?.(bucket);
        const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw new ApiError('rate_limited', `Too many requests; retry in ${seconds} s.`, 429, {
          'Retry-After': String(seconds),
        });
      }
    },
  };
}
