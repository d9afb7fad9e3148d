/**
 * The watch matching as the indexer worker runs it (indexer/worker.ts): its own Deps (the service's
 * search code needs them), and, after each incremental run that wrote, the changed homes matched in
 * batches against the watches (tools/watch-matching-run.ts). It runs inside the run, under the lease,
 * so only the worker holding the lease records changes.
 */
import type { Config } from './kernel/config';
import type { Logger } from './kernel/logger';
import { openDeps } from './service-deps';
import { readingVersion } from './kernel/store/mapping-version';
import { BUILD_MAPPING_VERSION } from './build-version';
import { matchWatchesFor } from './tools/watch-matching-run';
import { sendDueWebhooks } from './watches/webhook-sender';
import { watchIndexExists } from './watches/watch-index';
import type { KeptFacts } from './kernel/store/home-facts';
import { rebuildWatchesFromStore } from './tools/watch-criteria';
import { todayIso } from './kernel/engine/dates';

/**
 * Changed homes matched at once: one _msearch of the reverse search, then the candidate watches decided
 * 48 to a request. A batch's candidates are nearly every watch of its homes' markets, so a batch as
 * large as a busy run decides each watch once.
 */
export const MATCH_BATCH = 1_000;

export interface WatchMatcher {
  /**
   * Matches the homes an incremental run changes (inside the run, from the moment their documents are
   * built), with the facts of those it wrote; `indexed` settles when its writes are searchable (the
   * matching asks the homes after it: IndexerOptions.onWriting). Their webhooks go with sendDue, after the run.
   */
  onWriting(homeIds: readonly string[], written: KeptFacts | undefined, indexed: Promise<void>): Promise<void>;
  /** Sends the webhooks whose backoff has passed (the worker calls it after every incremental run, under the lease). */
  sendDue(): Promise<void>;
  close(): Promise<void>;
}

/** The worker's store calls are batch work, not a request's: they get this long rather than STORE_DEADLINE_MS. */
export const MATCHING_DEADLINE_MS = 120_000;

/** Deps for the matching: a service copy's of this build (its version's alias: docs/decisions.md, "Versioned aliases"), with the batch deadline. */
export const openMatchingDeps = (config: Config, log: Logger): ReturnType<typeof openDeps> =>
  openDeps(readingVersion({ ...config, storeDeadlineMs: Math.max(config.storeDeadlineMs, MATCHING_DEADLINE_MS) }, BUILD_MAPPING_VERSION), log);

export async function openWatchMatcher(config: Config, log: Logger): Promise<WatchMatcher> {
  const { deps, esNodes, es, mongo } = await openMatchingDeps(config, log);
  // The watches' index is derived from MongoDB: a worker that finds it missing rebuilds it first.
  if (!(await watchIndexExists(deps))) {
    const started = Date.now();
    const count = await rebuildWatchesFromStore(deps, todayIso(deps.clock()));
    log.info({ watches: count, ms: Date.now() - started }, 'watch index rebuilt from MongoDB');
  }
  return {
    async onWriting(homeIds, written, indexed) {
      for (let i = 0; i < homeIds.length; i += MATCH_BATCH) {
        const outcome = await matchWatchesFor(deps, homeIds.slice(i, i + MATCH_BATCH), deps.clock(), written, indexed);
        if (outcome.changes.length > 0) log.info({ watches: outcome.watches, changes: outcome.changes.length, ms: outcome.steps }, 'watch changes recorded');
      }
    },
    async sendDue() {
      await sendDueWebhooks(deps, deps.clock);
    },
    async close() {
      esNodes.close();
      await mongo.close();
      await es.close();
    },
  };
}
