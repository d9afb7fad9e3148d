/**
 * Which index each running copy of the service reads: every copy keeps a record in the indexer's state
 * collection naming its versioned alias (mapping-version.ts), renewed every few seconds and deleted
 * when it stops. The indexer keeps an index while a live record names it, and retires an older one
 * that none names (indexer/index-versions.ts). A record not renewed within its time to live (a copy
 * killed, its machine gone) no longer counts.
 */
import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from './collections';

/** How often a copy renews its record, and how long the record counts without renewal. */
export const READER_RENEW_MS = 5_000;
export const READER_TTL_MS = 30_000;

export interface IndexReader {
  /** The versioned alias the copy reads. */
  alias: string;
  mapping_version: string;
  /**
   * Whether the copy reads a watch's changes kept as runs (services/watches/store.ts): false in the
   * record of a copy of a build before them, which reads one record per change.
   */
  reads_change_runs: boolean;
  host: string;
  pid: number;
  expires_at: Date;
}

export interface ReaderHeartbeat {
  /** Deletes the record: from now on no index is kept for this copy. */
  stop(): Promise<void>;
}

/**
 * Writes the copy's record now (start-up waits for it: a copy never reads an index the indexer does
 * not know is read), then renews it in the background; a failed renewal (MongoDB away) is retried at
 * the next beat and reported through `onError`.
 */
export async function startReaderHeartbeat(
  state: Collection<IndexerStateRecord>,
  reader: { alias: string; mappingVersion: string; host: string },
  opts: { renewMs?: number; ttlMs?: number; now?: () => Date; onError?: (err: unknown) => void } = {},
): Promise<ReaderHeartbeat> {
  const now = opts.now ?? (() => new Date());
  const ttl = opts.ttlMs ?? READER_TTL_MS;
  const id = `reader|${reader.host}|${process.pid}|${randomUUID().slice(0, 8)}`;
  const beat = (): Promise<unknown> =>
    state.updateOne(
      { _id: id },
      {
        $set: {
          kind: 'reader',
          alias: reader.alias,
          mapping_version: reader.mappingVersion,
          reads_change_runs: true,
          host: reader.host,
          pid: process.pid,
          expires_at: new Date(now().getTime() + ttl),
        },
      },
      { upsert: true },
    );
  await beat();
  const timer = setInterval(() => void beat().catch((err: unknown) => opts.onError?.(err)), opts.renewMs ?? READER_RENEW_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await state.deleteOne({ _id: id });
    },
  };
}

/** The records of the copies alive now (renewed within their time to live). */
export async function liveReaders(state: Collection<IndexerStateRecord>, now = new Date()): Promise<IndexReader[]> {
  const docs = await state.find({ kind: 'reader', expires_at: { $gt: now } }).toArray();
  return docs.map((d) => ({
    alias: String(d.alias),
    mapping_version: String(d.mapping_version),
    reads_change_runs: d.reads_change_runs === true,
    host: String(d.host),
    pid: Number(d.pid),
    expires_at: d.expires_at as Date,
  }));
}

/** Deletes the records of copies gone without a word (killed): they no longer count anyway. */
export async function forgetExpiredReaders(state: Collection<IndexerStateRecord>, now = new Date()): Promise<void> {
  await state.deleteMany({ kind: 'reader', expires_at: { $lte: now } });
}
