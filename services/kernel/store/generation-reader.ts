/**
 * The index generation as a request needs it: read from MongoDB after the request asked, so that
 * every run whose writes were visible before it is counted. The calls made in one turn of the event
 * loop (the requests that arrived together) share one read, sent once that turn ends; a call never
 * waits for a read sent before it, so reads are never queued behind each other.
 */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from './collections';
import { readGeneration, type IndexGeneration } from './index-generation';

export class GenerationReader {
  private next: Promise<IndexGeneration | null> | null = null;

  constructor(private readonly state: Collection<IndexerStateRecord>) {}

  /** The generation as of a read sent after this call; null when it could not be read (use nothing kept). */
  read(): Promise<IndexGeneration | null> {
    this.next ??= new Promise((resolve) => {
      setImmediate(() => {
        this.next = null;
        resolve(readGeneration(this.state).catch(() => null));
      });
    });
    return this.next;
  }
}
