/**
 * Booking intents in MongoDB (spec: "booking_intent_tool" rules 2-3): one record per email, kept
 * by the unique email index even under concurrent calls; contact details saved within the last 30
 * days are neither overwritten nor echoed. No contact detail ever reaches an error message or log.
 */
import { randomBytes } from 'node:crypto';
import { MongoServerError } from 'mongodb';
import type { Collections } from '../kernel/store/collections';
import type { BookingIntentRecord } from '../kernel/inventory/records';

/** Spec Limits: "booking-intent repeat window: 30 days, during which contact details are not overwritten". */
export const REPEAT_WINDOW_DAYS = 30;
const REPEAT_WINDOW_MS = REPEAT_WINDOW_DAYS * 86_400_000;

export type IntentInput = Pick<BookingIntentRecord, 'email' | 'phone' | 'name' | 'home_slug' | 'start_date' | 'end_date' | 'committed_nights'>;

export interface SavedIntent {
  intentId: string;
  /** Whether this call saved the phone and name (a new record, or one past the 30-day window). */
  contactSaved: boolean;
}

const DUPLICATE_KEY = 11000;

/** A store error without the offending values (MongoDB puts the duplicate email in its message). */
function scrubbed(err: unknown): unknown {
  if (err instanceof MongoServerError) return new Error(`booking intent write failed (MongoDB error code ${String(err.code)})`);
  return err;
}

export async function saveIntent(c: Collections, input: IntentInput, now: Date): Promise<SavedIntent> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const existing = await c.bookingIntents.findOne({ email: input.email });
      if (!existing) {
        const record: BookingIntentRecord = {
          _id: `bi_${randomBytes(8).toString('hex')}`,
          ...input,
          guest_consent: true,
          created_at: now,
          updated_at: now,
          contact_saved_at: now,
        };
        await c.bookingIntents.insertOne(record);
        return { intentId: record._id, contactSaved: true };
      }
      const contactSaved = now.getTime() - existing.contact_saved_at.getTime() >= REPEAT_WINDOW_MS;
      const stay = { home_slug: input.home_slug, start_date: input.start_date, end_date: input.end_date, committed_nights: input.committed_nights };
      const contact = contactSaved ? { phone: input.phone, name: input.name, contact_saved_at: now } : {};
      await c.bookingIntents.updateOne({ _id: existing._id }, { $set: { ...stay, ...contact, guest_consent: true, updated_at: now } });
      return { intentId: existing._id, contactSaved };
    } catch (err) {
      // Another call created this email's record between our read and our insert: read it again.
      if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) continue;
      throw scrubbed(err);
    }
  }
  throw new Error('booking intent write kept colliding');
}
