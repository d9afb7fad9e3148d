/**
 * Each email's live watches, kept under a hash of the email (one record per email, read by `_id`):
 * at most WATCHES_PER_EMAIL at once. The list is replaced only if nobody changed it since it was
 * read (its version), so two concurrent creations cannot both take the last place.
 */
import { MongoServerError } from 'mongodb';
import type { Collections } from '../kernel/store/collections';
import type { WatchRecord } from '../kernel/store/watch-records';
import { ApiError } from '../kernel/errors';
import type { IsoDate } from '../kernel/inventory/records';

export const WATCHES_PER_EMAIL = 10;

const DUPLICATE_KEY = 11000;

/** Whether a watch still runs on `today`. */
export const isLive = (w: Pick<WatchRecord, 'ended_at' | 'expires_on'>, today: IsoDate): boolean => w.ended_at === null && w.expires_on >= today;

/** Adds `watchId` to the email's live watches, or throws too_many_watches when it has its fill. */
export async function claimPlace({ mongo: c }: { mongo: Collections }, key: string, watchId: string, today: IsoDate): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const owner = await c.watchOwners.findOne({ _id: key });
    const ids = owner?.watch_ids ?? [];
    const watches = ids.length ? await c.watches.find({ _id: { $in: ids } }, { projection: { ended_at: 1, expires_on: 1 } }).toArray() : [];
    const live = watches.filter((w) => isLive(w, today)).map((w) => w._id);
    if (live.length >= WATCHES_PER_EMAIL) {
      throw new ApiError(
        'too_many_watches',
        `This email already has ${WATCHES_PER_EMAIL} live watches: end one (DELETE its feed URL) before saving another. No watch was saved.`,
        409,
      );
    }
    const version = owner?.version ?? 0;
    try {
      const res = await c.watchOwners.updateOne({ _id: key, version }, { $set: { watch_ids: [...live, watchId], version: version + 1 } }, { upsert: true });
      if (res.matchedCount === 1 || res.upsertedCount === 1) return;
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
  }
  throw new Error('the email’s watch list kept changing under the write');
}

/** The email's watches (every one it has, live or not): what erasing the email ends. */
export async function ownedWatchIds(c: Collections, key: string): Promise<string[]> {
  return (await c.watchOwners.findOne({ _id: key }))?.watch_ids ?? [];
}
