/**
 * Booking intents in MongoDB (docs/contract.md, booking_intent_tool rules 2-3): one record per email, made by
 * an upsert on the unique email index, so concurrent first calls for one email leave one record.
 * Each call appends its stay, consent, phone and name to the record's bounded `calls`; nothing an
 * earlier call saved is rewritten or erased. The record's own contact details, saved within the last
 * 30 days, are neither overwritten nor echoed; past that a call may add new ones but never blanks one
 * it did not send. So whoever calls first for an email cannot make the guest's own details vanish.
 * A record whose email has not called for the retention period counts as absent (MongoDB's TTL
 * index removes it; the write path removes it too, for a store that does not expire documents).
 * No contact detail ever reaches an error message or log.
 */
import { randomBytes } from 'node:crypto';
import { MongoServerError } from 'mongodb';
import type { Collections } from '../kernel/store/collections';
import type { Deps } from '../deps';
import type { BookingIntentRecord, IntentCall } from '../kernel/inventory/records';

/** docs/contract.md, "Limits": "booking-intent repeat window: 30 days, in which contact details are not overwritten". */
export const REPEAT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;
const REPEAT_WINDOW_MS = REPEAT_WINDOW_DAYS * DAY_MS;

/** Calls one record keeps, newest last: enough to follow a guest's plans, bounded so no record grows without end. */
export const BOOKING_INTENT_CALLS_KEPT = 20;

export interface IntentInput {
  email: string;
  phone: string | null;
  name: string | null;
  /** This call's stay and consent; `at` is the call's time, `phone` and `name` are the ones above. */
  call: Omit<IntentCall, 'at' | 'phone' | 'name'>;
}

export interface SavedIntent {
  intentId: string;
  /** Whether this call saved the phone and name it sent (a new record, or one past the 30-day window). */
  contactSaved: boolean;
}

const DUPLICATE_KEY = 11000;

/** A store error without the offending values (MongoDB puts the duplicate email in its message). */
function scrubbed(err: unknown): unknown {
  if (err instanceof MongoServerError) return new Error(`booking intent write failed (MongoDB error code ${String(err.code)})`);
  return err;
}

/** The oldest `updated_at` a kept record may have at `now`. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/** saveIntent in the service's store, for the retention its configuration gives (what booking_intent_tool calls). */
export function keepIntent(deps: Pick<Deps, 'mongo' | 'config'>, input: IntentInput, now: Date): Promise<SavedIntent> {
  return saveIntent(deps.mongo, input, now, deps.config.bookingIntents.retentionDays);
}

/**
 * The email's kept record as a repeat call sees it, with nothing written (a call past the email's
 * budget, ./budget.ts): its intent id, no contact details echoed (rule 3). Null when there is none.
 */
export async function recordedIntent(deps: Pick<Deps, 'mongo' | 'config'>, email: string, now: Date): Promise<SavedIntent | null> {
  const cutoff = retentionCutoff(now, deps.config.bookingIntents.retentionDays);
  const record = await deps.mongo.bookingIntents.findOne({ email, updated_at: { $gte: cutoff } }, { projection: { _id: 1 } });
  return record ? { intentId: record._id, contactSaved: false } : null;
}

export async function saveIntent(c: Collections, input: IntentInput, now: Date, retentionDays: number): Promise<SavedIntent> {
  const { email, phone, name } = input;
  const cutoff = retentionCutoff(now, retentionDays);
  const call: IntentCall = { at: now, ...input.call, phone, name };
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = `bi_${randomBytes(8).toString('hex')}`;
    try {
      // One round trip in the common case: a record past its retention is not matched, so the upsert's
      // insert collides with it on the unique email and it is removed below (the store's TTL monitor
      // may not have got to it yet, or never will: the local stand-in does not expire documents).
      const before = await c.bookingIntents.findOneAndUpdate(
        { email, updated_at: { $gte: cutoff } },
        {
          $setOnInsert: { _id: id, email, phone, name, guest_consent: true, created_at: now, contact_saved_at: now },
          $set: { updated_at: now },
          $push: { calls: { $each: [call], $slice: -BOOKING_INTENT_CALLS_KEPT } },
        },
        { upsert: true, returnDocument: 'before' },
      );
      if (!before) return { intentId: id, contactSaved: true };
      return { intentId: before._id, contactSaved: await addContact(c, before, phone, name, now) };
    } catch (err) {
      // The insert collided: with a record past its retention (removed now, then written anew), or
      // with a concurrent first call for the same email (whose record the next attempt finds).
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw scrubbed(err);
      try {
        await c.bookingIntents.deleteOne({ email, updated_at: { $lt: cutoff } });
      } catch (deleteErr) {
        throw scrubbed(deleteErr);
      }
    }
  }
  throw new Error('booking intent write kept colliding');
}

/**
 * Past the 30-day window, the contact details this call sent (and only those: an omitted one is not
 * blanked) replace the saved ones. Conditional on the record's window as read, so of two concurrent
 * calls only one saves. True when this call's details were saved.
 */
async function addContact(c: Collections, before: BookingIntentRecord, phone: string | null, name: string | null, now: Date): Promise<boolean> {
  if (now.getTime() - before.contact_saved_at.getTime() < REPEAT_WINDOW_MS) return false;
  const sent = { ...(phone !== null ? { phone } : {}), ...(name !== null ? { name } : {}) };
  if (Object.keys(sent).length === 0) return false;
  const res = await c.bookingIntents.updateOne({ _id: before._id, contact_saved_at: before.contact_saved_at }, { $set: { ...sent, contact_saved_at: now } });
  return res.modifiedCount === 1;
}
