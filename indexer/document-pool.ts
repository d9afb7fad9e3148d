/**
 * Documents built in parallel for a full rebuild. Building them (toHomeDocument: the stay engine
 * over every home's calendar) is most of a rebuild's work and pure CPU, so a pool of worker threads
 * parses and builds batches of homes (BSON bytes as MongoDB sent them) while the main thread reads MongoDB and feeds the bulk load. Each worker
 * is started with the lookups and the day, and answers a batch with its documents as JSON text.
 * Batches may come back in any order: a bulk load does not care.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { bundleWithEsbuild } from '../services/kernel/browser-bundle';
import type { PrebuiltDocument } from './bulk-load';
import { buildBatch, type BuiltBatch, type PoolSetup } from './document-batch';
import { WordsSeen } from './words-seen';

/** Worker threads for a machine: one per core (the main thread's reads and sends are mostly I/O waits). */
export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/**
 * Below this many homes a rebuild builds its documents in its own thread (about 2 ms a home, so under
 * a second): starting the pool costs about as much as the building it would share (0.1 s a thread
 * compiled, a bundle of tens of ms more from the sources). docs/decisions.md, "Documents are built on worker threads".
 */
export const IN_PROCESS_BELOW_HOMES = 500;

/** The threads a rebuild of `homes` homes starts: none for a small inventory, else one per core. */
export const workersFor = (homes: number): number => (homes < IN_PROCESS_BELOW_HOMES ? 0 : defaultWorkers());

/**
 * What a pool thread runs. Compiled: document-worker.js beside this file. From the sources (tsx, jest):
 * document-worker.ts bundled in memory by esbuild (tens of ms, its packages required from here) and run
 * as the thread's script, rather than each thread loading tsx and compiling the same files (about 1 s).
 */
async function workerScript(): Promise<{ script: string; eval: boolean }> {
  const ext = path.extname(__filename);
  if (ext !== '.ts') return { script: path.join(__dirname, `document-worker${ext}`), eval: false };
  const { output } = await bundleWithEsbuild({
    entryPoints: [path.join(__dirname, 'document-worker.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    packages: 'external',
    logLevel: 'silent',
  });
  const require = `process.getBuiltinModule('node:module').createRequire(${JSON.stringify(__filename)})`;
  return { script: `(function (require) {\n${output}\n})(${require});`, eval: true };
}

/**
 * The documents of every batch, built by `workers` threads, at most two batches in flight per
 * worker (with none, in this thread, batch after batch). Ends when the batches do, after every worker
 * stopped; the first failure of a worker fails the whole iteration (and stops the others).
 */
export async function* pooledDocuments(
  /** Homes as BSON bytes, batch by batch (source.ts homeBytesBySlice). */
  batches: AsyncIterable<Uint8Array[]>,
  setup: PoolSetup,
  onSkip: (reason: string) => void,
  workers = defaultWorkers(),
  /** The documents' words, each at least once (the vocabulary's; words-seen.ts). */
  onWords: (words: readonly string[]) => void = () => undefined,
): AsyncGenerator<PrebuiltDocument> {
  if (workers === 0) {
    let id = 0;
    const seen = new WordsSeen();
    for await (const homes of batches) {
      const batch = buildBatch(id++, homes, setup, seen);
      onWords(batch.words);
      for (const reason of batch.skipped) onSkip(reason);
      yield* batch.documents;
    }
    return;
  }
  const worker = await workerScript();
  const pool = Array.from({ length: workers }, () => new Worker(worker.script, { workerData: setup, execArgv: [], eval: worker.eval }));
  const load = new Map<Worker, number>(pool.map((w) => [w, 0]));
  const done: BuiltBatch[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  for (const w of pool) {
    w.on('message', (batch: BuiltBatch) => {
      load.set(w, (load.get(w) ?? 1) - 1);
      done.push(batch);
      notify();
    });
    w.on('error', (err) => {
      failure ??= err;
      notify();
    });
    w.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`a document worker stopped with code ${code}`);
      notify();
    });
  }
  const waitForNews = (): Promise<void> => new Promise((resolve) => (wake = resolve));
  let sent = 0;
  let received = 0;
  try {
    const source = batches[Symbol.asyncIterator]();
    let exhausted = false;
    while (!exhausted || received < sent) {
      if (failure) throw failure;
      // Keep every worker busy with up to two batches before waiting for one to come back.
      const idle = pool.find((w) => (load.get(w) ?? 0) < 2);
      if (!exhausted && idle) {
        const next = await source.next();
        if (next.done) exhausted = true;
        else if (next.value.length > 0) {
          load.set(idle, (load.get(idle) ?? 0) + 1);
          idle.postMessage({ id: sent, homes: next.value });
          sent += 1;
        }
        continue;
      }
      while (done.length === 0 && !failure) await waitForNews();
      if (failure) throw failure;
      const batch = done.shift()!;
      received += 1;
      onWords(batch.words);
      for (const reason of batch.skipped) onSkip(reason);
      yield* batch.documents;
    }
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
