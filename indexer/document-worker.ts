/**
 * A worker thread of the document pool (document-pool.ts): builds each batch of homes it is sent
 * (document-batch.ts) with the lookups and the day it was started with, and answers with the batch's
 * documents and the homes it had to skip.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildBatch } from './document-batch';
import type { PoolSetup } from './document-batch';
import { WordsSeen } from './words-seen';

const setup = workerData as PoolSetup;
/** A thread lives for one rebuild: its words seen are that rebuild's. */
const seen = new WordsSeen();

parentPort?.on('message', ({ id, homes }: { id: number; homes: Uint8Array[] }) => {
  parentPort?.postMessage(buildBatch(id, homes, setup, seen));
});
