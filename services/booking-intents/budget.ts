/**
 * booking_intent_tool's own write budget, apart from the per-client request limits: so many intents
 * per client address per address window, and so many per email per email window, whoever sends them
 * (BOOKING_INTENT_* in kernel/config.ts). Counted in MongoDB (rate-limiter-flexible's Mongo limiter,
 * collection `rate_limits`, whose indexes ensureIndexes makes), so every copy of the service shares
 * one count; with RATE_LIMIT_SHARED=false each process counts alone. The email's count is kept under
 * a hash of the normalised email, never the email itself. Past the address's budget a write is
 * refused and saves nothing; past the email's, the call is answered from the record as a repeat
 * (docs/contract.md, booking_intent_tool rule 3) and saves nothing: strangers spending an email's
 * budget cannot lock its guest out, and a flood for one email costs reads, not writes.
 */
import { createHash } from 'node:crypto';
import type { MongoClient } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Deps } from '../deps';
import type { BookingIntentConfig } from '../kernel/config';
import { ApiError } from '../kernel/errors';
import { RATE_LIMITS_COLLECTION } from '../kernel/store/collections';

/** The counts' key prefixes in `rate_limits` (rate-limiter-flexible stores `prefix:key`). */
export const ADDRESS_PREFIX = 'intent_address';
export const EMAIL_PREFIX = 'intent_email';

/** The key of an email's count: a hash of the email as saved (trimmed, lower-cased). */
export function emailBudgetKey(normalisedEmail: string): string {
  return createHash('sha256').update(`booking-intent-email:${normalisedEmail}`).digest('hex');
}

/** The full `rate_limits` key of an email's count (what the erase command removes). */
export function emailCountKey(normalisedEmail: string): string {
  return `${EMAIL_PREFIX}:${emailBudgetKey(normalisedEmail)}`;
}

/** What a call may do: save (both budgets had room), or only read (the email's budget is spent). */
export type BudgetVerdict = 'write' | 'read_only';

export interface IntentBudget {
  /**
   * Takes one intent from the address's budget, or throws ApiError rate_limited (429, Retry-After);
   * then one from the email's, or answers `read_only` when it has none left (its count untouched).
   */
  spend(clientKey: string, normalisedEmail: string): Promise<BudgetVerdict>;
}

export function createIntentBudget(cfg: BookingIntentConfig, store?: { client: MongoClient; dbName: string }): IntentBudget {
  const make = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract =>
    store
      ? new RateLimiterMongo({
          storeClient: store.client,
          dbName: store.dbName,
          tableName: RATE_LIMITS_COLLECTION,
          keyPrefix,
          points,
          duration,
          disableIndexesCreation: true,
        })
      : new RateLimiterMemory({ keyPrefix, points, duration });
  const address = make(ADDRESS_PREFIX, cfg.addressPoints, cfg.addressWindowSeconds);
  const email = make(EMAIL_PREFIX, cfg.emailPoints, cfg.emailWindowSeconds);
  return {
    async spend(clientKey, normalisedEmail) {
      try {
        await address.consume(clientKey);
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw new ApiError('rate_limited', `Too many booking intents from this address; nothing was saved. Retry in ${seconds} s.`, 429, {
          'Retry-After': String(seconds),
        });
      }
      const key = emailBudgetKey(normalisedEmail);
      // A spent budget is read, not consumed again: a flood past it writes nothing to the count either.
      const counted = await email.get(key);
      if (counted && counted.consumedPoints >= cfg.emailPoints) return 'read_only';
      try {
        await email.consume(key);
        return 'write';
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        return 'read_only';
      }
    },
  };
}

/** One budget per running service (its Deps), made on first use with the service's own MongoDB client. */
const BUDGETS = new WeakMap<Deps, IntentBudget>();

export function intentBudgetOf(deps: Deps): IntentBudget {
  let budget = BUDGETS.get(deps);
  if (!budget) {
    const store = deps.config.rateLimit.shared ? { client: deps.db.client, dbName: deps.db.databaseName } : undefined;
    BUDGETS.set(deps, (budget = createIntentBudget(deps.config.bookingIntents, store)));
  }
  return budget;
}
