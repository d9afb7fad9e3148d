/**
 * The matching of changed homes with the service's own search (services/watches/matching.ts): the
 * candidate watches' searches, restricted to their candidate homes, decided many to a request by
 * watch-decisions.ts with the clauses and prices search_apartments_tool uses. What the indexer
 * worker calls after an incremental run that wrote.
 */
import type { Deps } from '../deps';
import { todayIso } from '../kernel/engine/dates';
import { matchChangedHomes, type MatchingOutcome } from '../watches/matching';
import type { KeptFacts } from '../kernel/store/home-facts';
import { decideWatches } from './watch-decisions';

/**
 * `known`: the facts of homes the run is writing (the others are read from the homes alias); `indexed`:
 * settles when the run's writes are searchable, which the steps that ask the homes wait for.
 */
export function matchWatchesFor(deps: Deps, homeIds: readonly string[], now: Date, known?: KeptFacts, indexed?: Promise<void>): Promise<MatchingOutcome> {
  const today = todayIso(now);
  return matchChangedHomes(deps, homeIds, today, now, (questions) => decideWatches(deps, questions, today), known, indexed);
}
