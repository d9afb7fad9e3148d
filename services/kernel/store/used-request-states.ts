/**
 * The guest-confirmation states already used (services/transports/mcp/guest-confirmation.ts): a state
 * lets one write through, on whichever copy of the service it reaches. One document per used state,
 * keyed by a hash of the state; the unique `_id` lets exactly one of two concurrent uses insert it, and
 * a TTL index drops it once the state could no longer be valid anyway.
 */
import { createHash } from 'node:crypto';
import { MongoServerError, type Collection } from 'mongodb';
import { REQUEST_STATE_LIFETIME_SECONDS } from '../limits/request-state';

export interface UsedRequestStateRecord {
  _id: string; // SHA-256 of the state's signed part (version and payload), base64url
  used_at: Date;
}

export const USED_REQUEST_STATES_COLLECTION = 'used_request_states';
const DUPLICATE_KEY = 11000;

/** The TTL index: a used state is kept as long as it could still verify, then MongoDB drops it. */
export async function ensureUsedStatesIndex(used: Collection<UsedRequestStateRecord>): Promise<void> {
  await used.createIndex({ used_at: 1 }, { expireAfterSeconds: REQUEST_STATE_LIFETIME_SECONDS, name: 'lifetime' });
}

/** True for the first use of `state`, false for every later one (on any copy, at any address). */
export async function useStateOnce(used: Collection<UsedRequestStateRecord>, state: string, now: Date): Promise<boolean> {
  // Keyed by the signed part (its payload holds a random id): one state is one key, whatever its signature's spelling.
  const signed = state.split('.').slice(0, 2).join('.');
  const _id = createHash('sha256').update(signed).digest('base64url');
  try {
    await used.insertOne({ _id, used_at: now });
    return true;
  } catch (err) {
    if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) return false;
    throw err;
  }
}
