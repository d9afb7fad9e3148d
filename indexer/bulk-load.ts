/**
 * One bulk load into Elasticsearch for both runs: the client's bulk helper, lease heartbeats while
 * it works, and failure when any item is rejected (STYLE: "any dropped document fails the run").
 */
import type { Client } from '@elastic/elasticsearch';
import type { helpers } from '@elastic/elasticsearch';
import { INDEXER_BULK_DEFAULTS } from '../services/kernel/config';
import { bulkHeartbeat } from './heartbeat';

export class IndexingFailedError extends Error {
  constructor(message: string, readonly dropped: number) {
    super(message);
    this.name = 'IndexingFailedError';
  }
}

export interface BulkLoadOptions<T> {
  datasource: AsyncIterator<T>;
  onDocument: helpers.BulkHelperOptions<T>['onDocument'];
  flushBytes?: number;
  concurrency?: number;
  heartbeat?: () => Promise<void>;
  /** Index (or alias) to refresh when done; none for a load into an index that is refreshed later. */
  refresh?: string;
  /** Drops that are not failures (deleting a document that is not there). */
  ignoreDrop?: (status: number) => boolean;
}

export async function bulkLoad<T>(es: Client, opts: BulkLoadOptions<T>): Promise<void> {
  const beat = bulkHeartbeat(opts.heartbeat);
  const dropped: string[] = [];
  // Every rejected item reaches onDrop (stats.failed counts the ignored ones too).
  await es.helpers.bulk<T>({
    datasource: opts.datasource,
    onDocument: opts.onDocument,
    onDrop: (drop) => {
      if (opts.ignoreDrop?.(drop.status)) return;
      dropped.push(`${drop.status}: ${JSON.stringify(drop.error)}`);
    },
    onSuccess: () => beat.tick(),
    flushBytes: opts.flushBytes ?? INDEXER_BULK_DEFAULTS.flushBytes,
    concurrency: opts.concurrency ?? INDEXER_BULK_DEFAULTS.concurrency,
    retries: 3,
    ...(opts.refresh ? { refreshOnCompletion: opts.refresh } : {}),
  });
  if (dropped.length > 0) {
    throw new IndexingFailedError(`${dropped.length} document(s) were rejected; first: ${dropped[0]}`, dropped.length);
  }
  // Still ours? Only then may the caller commit (alias swap, change log).
  await beat.check();
}
