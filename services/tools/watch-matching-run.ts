/**
 * The matching of changed homes with the service's own search (services/watches/matching.ts): each
 * candidate watch's search is run restricted to its candidate homes by watchedMatches, the code
 * search_apartments_tool runs. What the indexer worker calls after an incremental run that wrote.
 */
import type { Deps } from '../deps';
import { todayIso } from '../kernel/engine/dates';
import { matchChangedHomes, type MatchingOutcome } from '../watches/matching';
import { watchedMatches, type WatchedArgs } from './watched-search';

export function matchWatchesFor(deps: Deps, homeIds: readonly string[], now: Date): Promise<MatchingOutcome> {
  const today = todayIso(now);
  return matchChangedHomes(deps, homeIds, today, now, async (watch, ids) => {
    const { matches } = await watchedMatches(deps, watch.search as WatchedArgs, today, { homeIds: ids, limit: ids.length });
    return matches;
  });
}
