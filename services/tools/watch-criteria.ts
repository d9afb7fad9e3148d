/**
 * The criteria of a stored watch, read again from its search as the service reads it (what the
 * watches' index rebuild uses for a record saved without them, services/watches/watch-index.ts).
 */
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import type { WatchRecord } from '../kernel/store/watch-records';
import { ApiError } from '../kernel/errors';
import { criteriaOf, rebuildWatchIndex, type WatchCriteria } from '../watches/watch-index';
import { watchedParams, type WatchedArgs } from './watched-search';

export async function storedWatchCriteria(deps: Deps, watch: WatchRecord, today: IsoDate): Promise<WatchCriteria | null> {
  try {
    return criteriaOf(watch._id, await watchedParams(deps, watch.search as WatchedArgs, today), watch.expires_on);
  } catch (err) {
    // A search the service refuses now (its market is gone) has no criteria: the matching ends it.
    if (err instanceof ApiError && err.status < 500) return null;
    throw err;
  }
}

/** Rebuilds the watches' index from MongoDB; how many live watches it holds. */
export function rebuildWatchesFromStore(deps: Deps, today: IsoDate): Promise<number> {
  return rebuildWatchIndex(deps, today, (w) => storedWatchCriteria(deps, w, today));
}
