/** The parts of the configuration (./config.ts) that concern booking_intent_tool and the guest's confirmation. */
import { randomBytes } from 'node:crypto';

/** booking_intent_tool's own limits and keeping (services/booking-intents/). */
export interface BookingIntentConfig {
  /** Intents one client address may save per address window (BOOKING_INTENT_ADDRESS_POINTS). */
  addressPoints: number;
  addressWindowSeconds: number;
  /** Intents one email may receive per email window, whoever sends them (BOOKING_INTENT_EMAIL_POINTS). */
  emailPoints: number;
  emailWindowSeconds: number;
  /** Days a record is kept after its email's last call; then it is gone (TTL index, and the write path). */
  retentionDays: number;
}

/**
 * Keys of the signed requestState of the guest's confirmation (REQUEST_STATE_SECRETS): the first signs,
 * all verify, so a key is rotated by putting the new one first and dropping the old one later.
 */
export interface RequestStateConfig {
  secrets: string[];
  /** True when none was configured and a random one was made at start (one copy only: logged as a warning). */
  generated: boolean;
}

/** Shortest REQUEST_STATE_SECRETS entry accepted (characters). */
export const MIN_REQUEST_STATE_SECRET = 32;

/** REQUEST_STATE_SECRETS as read: each entry long enough, or one random key made now when none is set. */
export function requestStateConfig(secrets: string[]): RequestStateConfig {
  for (const [i, secret] of secrets.entries()) {
    if (secret.length < MIN_REQUEST_STATE_SECRET) {
      throw new Error(`REQUEST_STATE_SECRETS: entry ${i + 1} is shorter than ${MIN_REQUEST_STATE_SECRET} characters (e.g. openssl rand -base64 48)`);
    }
  }
  if (secrets.length > 0) return { secrets, generated: false };
  return { secrets: [randomBytes(48).toString('base64url')], generated: true };
}
