/**
 * Erasing one guest: every record the service keeps of an email (its booking intent, with every call's
 * stay, consent, phone and name, and the email's write-budget count, kept under a hash of the email). Used by
 * `npm run erase-guest` (./erase-cli.ts).
 */
import type { Collections } from '../kernel/store/collections';
import { RATE_LIMITS_COLLECTION } from '../kernel/store/collections';
import { emailCountKey } from './budget';
import { emailKey } from '../watches/token';

export interface Erased {
  /** Booking-intent records removed (0 or 1: one record per email). */
  intents: number;
  /** Calls those records held (each call's stay and consent). */
  calls: number;
  /** Those calls that held a phone or a name of their own. */
  callContacts: number;
  /** Write-budget counts removed (the email's, keyed by its hash). */
  budgetCounts: number;
  /** Watches (saved searches) of the email removed, with their changes kept for the feed. */
  watches: number;
}

/** The email as the service saves it (booking_intent_tool): trimmed, lower-cased. */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export async function eraseGuest(c: Collections, rawEmail: string): Promise<Erased> {
  const email = normaliseEmail(rawEmail);
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error('not an email address');
  const records = await c.bookingIntents.find({ email }, { projection: { calls: 1 } }).toArray();
  const held = records.flatMap((r) => (Array.isArray(r.calls) ? r.calls : []));
  const calls = held.length;
  const callContacts = held.filter((call) => Boolean(call.phone ?? call.name)).length;
  const intents = (await c.bookingIntents.deleteMany({ email })).deletedCount;
  const counts = c.homes.db.collection<{ key: string }>(RATE_LIMITS_COLLECTION);
  const budgetCounts = (await counts.deleteMany({ key: emailCountKey(email) })).deletedCount;
  // The email's watches end and are removed (their criteria leave the reverse search when the worker next meets them).
  const owner = await c.watchOwners.findOne({ _id: emailKey(email) });
  const ids = owner?.watch_ids ?? [];
  const watches = ids.length ? (await c.watches.deleteMany({ _id: { $in: ids } })).deletedCount : 0;
  if (ids.length) {
    // Their changes and undelivered webhooks go with them: nothing is sent for an erased guest.
    await c.watchChanges.deleteMany({ watch_id: { $in: ids } });
    await c.watchOutbox.deleteMany({ _id: { $in: ids } });
  }
  if (owner) await c.watchOwners.deleteOne({ _id: owner._id });
  return { intents, calls, callContacts, budgetCounts, watches };
}

export function describeErased(e: Erased): string {
  return (
    `erased: ${e.intents} booking-intent record(s) holding ${e.calls} call(s) (stays and consents), ` +
    `${e.callContacts} of them with a phone or name, ` +
    `${e.budgetCounts} write-budget count(s), ${e.watches} watch(es)` +
    (e.intents + e.budgetCounts + e.watches === 0 ? ' - nothing was kept for this email' : '')
  );
}
