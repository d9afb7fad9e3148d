/**
 * What each candidate watch's search matches of the homes an incremental run changed, for a whole
 * batch of watches at once: each watch's search is read as search_apartments_tool reads it, then the
 * searches are answered together (../search/apartments/restricted-searches.ts); a window of move-in
 * dates, or a search too large to share a request, runs its own restricted search (watched-search.ts).
 */
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import { ApiError } from '../kernel/errors';
import type { SearchParams } from '../search/shared/search-params';
import { startsInPast } from '../search/shared/exact-search';
import { restrictedSearches, type RestrictedSearch } from '../search/apartments/restricted-searches';
import type { NowMatching } from '../watches/diff';
import type { WatchQuestion } from '../watches/matching';
import { watchedMatches, watchedParams, type WatchedArgs } from './watched-search';

export async function decideWatches(deps: Deps, questions: readonly WatchQuestion[], today: IsoDate): Promise<Map<string, NowMatching[] | ApiError>> {
  const answers = new Map<string, NowMatching[] | ApiError>();
  const shared: RestrictedSearch[] = [];
  const alone: WatchQuestion[] = [];
  for (const q of questions) {
    let params: SearchParams;
    try {
      params = await watchedParams(deps, q.watch.search as WatchedArgs, today);
      // q expanded in a vocabulary not yet confirmed: the settled words are the search's (../search/shared/read-q.ts).
      if (params.textSettled !== undefined) {
        const settled = await params.textSettled;
        params = { ...params, ...(settled === null ? {} : { text: settled }), textSettled: undefined };
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      answers.set(q.watch._id, err);
      continue;
    }
    if (q.homeIds.length === 0 || startsInPast(params, today)) answers.set(q.watch._id, []);
    else if (params.window) alone.push(q);
    else shared.push({ key: q.watch._id, params, homeIds: q.homeIds });
  }
  const asked = new Map(questions.map((q) => [q.watch._id, q]));
  for (const [key, matches] of await restrictedSearches(deps, shared, today)) {
    if (matches !== null) answers.set(key, matches);
    else alone.push(asked.get(key)!);
  }
  for (const { watch, homeIds } of alone) {
    try {
      const { matches } = await watchedMatches(deps, watch.search as WatchedArgs, today, { homeIds, limit: homeIds.length });
      answers.set(watch._id, matches);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      answers.set(watch._id, err);
    }
  }
  return answers;
}
