/**
 * A page of a watch's feed: the changes after the cursor, in order, with the cursor of the next page.
 * At-least-once: a client that lost its place asks again with its last cursor and sees the same ids.
 */
import type { Collections } from '../kernel/store/collections';
import type { WatchRecord } from '../kernel/store/watch-records';
import { changeView, type ChangeView } from './change-view';
import { decodeCursor, encodeCursor } from './cursor';
import { changesBetween, committedChanges } from './store';

export const FEED_PAGE = 50;

export interface FeedPage {
  watch_id: string;
  expires_on: string;
  changes: ChangeView[];
  /** Where the next page starts: pass it as `cursor` (also when no change is left yet, to poll). */
  next_cursor: string;
  has_more: boolean;
}

export async function feedPage(c: Collections, watch: WatchRecord, cursor: string | undefined, size = FEED_PAGE): Promise<FeedPage> {
  // The changes of a batch still pending are not all written yet: the feed stops before them.
  const committed = committedChanges(watch);
  const after = Math.min(decodeCursor(cursor), committed);
  const last = Math.min(committed, after + size);
  const records = await changesBetween(c, watch._id, after + 1, last);
  return {
    watch_id: watch._id,
    expires_on: watch.expires_on,
    changes: records.map(changeView),
    next_cursor: encodeCursor(last),
    has_more: last < committed,
  };
}
