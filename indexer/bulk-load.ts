/**
 * One bulk load into Elasticsearch for both runs: the client's bulk helper, lease heartbeats while
 * it works, and failure when any item is rejected (STYLE: "any dropped document fails the run").
 */
import type { Client } from '@elastic/elasticsearch';
import type { helpers } from '@elastic/elasticsearch';
import { INDEXER_BULK_DEFAULTS } from '../services/kernel/config';
import { bulkHeartbeat } from './heartbeat';

export class IndexingFailedError extends Error {
  constructor(
    message: string,
    readonly dropped: number,
  ) {
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

/**
 * The source as the bulk helper takes it, ending quietly where the source fails. The helper gives
 * up at once on a source that throws and leaves its bulk requests in flight (retried, even): the
 * caller then deletes the half-built index, a late request writes to that name and Elasticsearch
 * creates it again, with no mapping of ours. Ended, the source lets the helper wait for every
 * request it sent; the failure is thrown after that.
 */
async function* endingOnFailure<T>(source: AsyncIterator<T>, failed: { error: unknown }): AsyncGenerator<T> {
  for (;;) {
    let step: IteratorResult<T>;
    try {
      step = await source.next();
    } catch (err) {
      failed.error = err;
      return;
    }
    if (step.done) return;
    yield step.value;
  }
}

export async function bulkLoad<T>(es: Client, opts: BulkLoadOptions<T>): Promise<void> {
  const beat = bulkHeartbeat(opts.heartbeat);
  const dropped: string[] = [];
  const source = { error: null as unknown };
  // Every rejected item reaches onDrop (stats.failed counts the ignored ones too).
  await es.helpers.bulk<T>({
    datasource: endingOnFailure(opts.datasource, source),
    // The heartbeat ticks as the helper takes documents, which it stops doing while its requests wait.
    // Not from `onSuccess`: the helper parses every document it sent back into an object to call that
    // (750 MB of JSON for 100,000 homes, 6 s of the indexer's main thread).
    onDocument: (doc) => {
      beat.tick();
      return opts.onDocument(doc);
    },
    onDrop: (drop) => {
      if (opts.ignoreDrop?.(drop.status)) return;
      dropped.push(`${drop.status}: ${JSON.stringify(drop.error)}`);
    },
    // Each item's status and error are all the helper reads of an answer (~25 bytes of ~250 per document).
    filter_path: 'errors,items.*.status,items.*.error',
    flushBytes: opts.flushBytes ?? INDEXER_BULK_DEFAULTS.flushBytes,
    concurrency: opts.concurrency ?? INDEXER_BULK_DEFAULTS.concurrency,
    retries: 3,
    ...(opts.refresh ? { refreshOnCompletion: opts.refresh } : {}),
  });
  if (source.error !== null) throw source.error;
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
