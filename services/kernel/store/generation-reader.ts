/**
 * The index generation as a request needs it: read from MongoDB after the request asked, so that
 * every run whose writes were visible before it is counted. Requests that ask while a read is under
 * way share the next one, which starts as soon as that one ends: at most one read is in flight, and
 * a busy copy makes far fewer reads than requests.
 */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from './collections';
import { readGeneration, type IndexGeneration } from './index-generation';

export class GenerationReader {
  private current: Promise<IndexGeneration | null> | null = null;
  private queued: Promise<IndexGeneration | null> | null = null;

  constructor(private readonly state: Collection<IndexerStateRecord>) {}

  /** The generation as of a read started after this call; null when it could not be read (use nothing cached). */
  read(): Promise<IndexGeneration | null> {
    if (this.current === null) return this.launch();
    // The read under way may have started before this call: it could miss a run that ended just before.
    this.queued ??= this.current.then(() => {
      this.queued = null;
      return this.launch();
    });
    return this.queued;
  }

  private launch(): Promise<IndexGeneration | null> {
    const read = readGeneration(this.state).catch(() => null);
    this.current = read;
    void read.then(() => {
      if (this.current === read) this.current = null;
    });
    return read;
  }
}
