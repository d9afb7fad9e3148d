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

/** A document whose source is already JSON text (built on a worker thread), with where it goes. */
export interface PrebuiltDocument {
  id: string;
  routing: string;
  json: string;
}

/**
 * A bulk load of documents built elsewhere as JSON text: the bulk helper sends a string item as it
 * is, so the text is not parsed or serialized again here. The helper asks for each item's action
 * right after taking it from the source, in order, so the ids and routings wait in a queue beside.
 */
export async function bulkLoadPrebuilt(
  es: Client,
  index: string,
  documents: AsyncIterable<PrebuiltDocument>,
  opts: Omit<BulkLoadOptions<string>, 'datasource' | 'onDocument'> & { onDocument?: () => void },
): Promise<void> {
  const waiting: Array<{ id: string; routing: string }> = [];
  async function* texts(): AsyncGenerator<string> {
    for await (const doc of documents) {
      waiting.push({ id: doc.id, routing: doc.routing });
      yield doc.json;
    }
  }
  await bulkLoad<string>(es, {
    ...opts,
    datasource: texts(),
    onDocument: () => {
      const next = waiting.shift();
      if (!next) throw new Error('bulk helper asked for an action with no document waiting');
      opts.onDocument?.();
      return { index: { _index: index, _id: next.id, routing: next.routing } };
    },
  });
}
