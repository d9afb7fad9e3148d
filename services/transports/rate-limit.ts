/**
 * Per-client rate limits (rate-limiter-flexible, in memory: each service copy limits on its
 * own). The availability overview has a smaller bucket (spec: "Limits").
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../kernel/config';
import { ApiError } from '../kernel/errors';

export interface RateLimits {
  consume(clientKey: string, bucket: 'default' | 'overview'): Promise<void>;
}

export function createRateLimits(cfg: RateLimitConfig, onRefused: (bucket: 'default' | 'overview') => void = () => undefined): RateLimits {
  const limiters = {
    default: new RateLimiterMemory({ keyPrefix: 'default', points: cfg.points, duration: cfg.windowSeconds }),
    overview: new RateLimiterMemory({ keyPrefix: 'overview', points: cfg.overviewPoints, duration: cfg.windowSeconds }),
  };
  return {
    async consume(clientKey, bucket) {
      try {
        await limiters[bucket].consume(clientKey);
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        onRefused(bucket);
        const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw new ApiError('rate_limited', `Too many requests; retry in ${seconds} s.`, 429, {
          'Retry-After': String(seconds),
        });
      }
    },
  };
}
