/**
 * Answers kept per index generation (docs/decisions.md, "The map's answers per generation"): an answer
 * computed after a generation was read that is not `applying` holds everything search showed under it,
 * so it may serve any later request that reads the same generation. A generation that moves (every
 * indexer write moves it twice) drops every kept answer; one that is `applying`, or cannot be read,
 * keeps nothing and computes every time. Requests asking the same question while it is being computed
 * share that computation; a shared computation that fails is computed again by each request that
 * joined it, under its own deadline.
 *
 * Kept answers are frozen: the transports read them, and a write to one would change what the next
 * request is served. What the bound counts of a kept answer is what it holds (docs/decisions.md, "The
 * map's answers per generation"): its key, the answer itself (`sizeOf`, counted once when it is kept),
 * and each form a transport keeps beside it (./answer-forms.ts), counted as it is made.
 */
import { LRUCache } from 'lru-cache';
import type { CacheLookups } from '../metrics';
import { formBytes, stringBytes, watchForms } from './answer-forms';
import type { GenerationReader } from './generation-reader';
import { noteRequest } from '../tracing';

export interface GenerationAnswersOptions<T> {
  /** Bytes the kept answers may hold, with their keys and their served forms; 0 keeps nothing. */
  maxBytes: number;
  /** The bytes of the answer object itself (its served forms are counted as they are made). */
  sizeOf: (answer: T) => number;
}

/** The cache's own entry of a key: the key twice (the LRU's map and its list) and the entry's slots. */
const keyBytes = (key: string): number => stringBytes(key) + 64;

/** Freezes the answer through and through, inside parts already frozen too (the transports write a frozen answer's JSON once). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export class GenerationAnswers<T extends object> {
  private readonly kept: LRUCache<string, T> | null;
  /** What each kept answer's object holds (sizeOf, once). */
  private readonly own = new WeakMap<T, number>();
  private readonly computing = new Map<string, Promise<T>>();
  /** The generation the kept answers were computed under. */
  private generation = -1;
  /** Questions answered from a kept or shared answer (hit) or computed by the asker (miss), for the metrics. */
  readonly lookups: CacheLookups = { hit: 0, miss: 0 };

  constructor(
    private readonly reader: Pick<GenerationReader, 'read'>,
    private readonly opts: GenerationAnswersOptions<T>,
  ) {
    this.kept =
      opts.maxBytes > 0
        ? new LRUCache<string, T>({ maxSize: opts.maxBytes, sizeCalculation: (a, key) => keyBytes(key) + (this.own.get(a) ?? 0) + formBytes(a) })
        : null;
  }

  /** The bytes the kept answers hold, as the bound counts them. */
  get bytes(): number {
    return this.kept?.calculatedSize ?? 0;
  }

  /** Keeps an answer, counted again each time a transport keeps a form of it (lru-cache recounts a key only when its value changes). */
  private keep(key: string, value: T): void {
    this.own.set(value, Math.max(1, this.opts.sizeOf(value)));
    this.kept!.set(key, value);
    watchForms(value, () => {
      if (this.kept?.peek(key) !== value) return;
      this.kept.delete(key);
      this.kept.set(key, value);
    });
  }

  /** Kept answers now (for tests and metrics). */
  get size(): number {
    return this.kept?.size ?? 0;
  }

  /** The answer to `key` under the current generation: kept, being computed, or computed now. */
  async answer(key: string, compute: () => Promise<T>): Promise<T> {
    const computed = (): Promise<T> => {
      this.lookups.miss++;
      return compute();
    };
    if (this.kept === null) return computed();
    const at = await this.reader.read();
    if (at === null || at.applying) return computed();
    if (at.n !== this.generation) {
      // Every kept answer is older than what search shows now; so is every one being computed.
      if (at.n < this.generation) return computed();
      this.kept.clear();
      this.computing.clear();
      this.generation = at.n;
    }
    const kept = this.kept.get(key);
    const shared = this.computing.get(key);
    if (kept !== undefined || shared !== undefined) this.lookups.hit++;
    if (kept !== undefined) {
      noteRequest({ 'catalog.cache': 'kept' });
      return kept;
    }
    if (shared !== undefined) {
      noteRequest({ 'catalog.cache': 'shared' });
      return shared.catch(() => compute());
    }
    noteRequest({ 'catalog.cache': 'miss' });
    const mine = computed().then(deepFreeze);
    this.computing.set(key, mine);
    try {
      const value = await mine;
      // Kept only when no newer generation was read meanwhile (which cleared what was being computed).
      if (this.computing.get(key) === mine && this.generation === at.n) this.keep(key, value);
      return value;
    } finally {
      if (this.computing.get(key) === mine) this.computing.delete(key);
    }
  }
}
