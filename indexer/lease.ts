/**
 * A lease in MongoDB so two indexers never overlap. The holder renews it while it works; a
 * crashed holder's lease simply expires. Acquisition is one conditional upsert: when the
 * document exists and is held, the filter misses, the upsert collides on `_id`, and the
 * duplicate-key error means "someone else has it".
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from '../services/kernel/store/collections';

const LEASE_ID = 'lease';

export interface Lease {
  holder: string;
  /** Extends the lease; throws when it was lost (another indexer took an expired lease). */
  renew(): Promise<void>;
  release(): Promise<void>;
}

export class LeaseLostError extends Error {
  constructor() {
    super('the indexer lease was lost to another indexer; stopping so two runs do not overlap');
    this.name = 'LeaseLostError';
  }
}

export class LeaseHeldError extends Error {
  constructor(
    readonly heldBy: string,
    readonly until: Date,
  ) {
    super(`another indexer (${heldBy}) holds the lease until ${until.toISOString()}`);
    this.name = 'LeaseHeldError';
  }
}

/** A holder on this host whose process is gone (killed mid-run) cannot renew; no need to wait out its lease. */
export function holderIsDeadHere(holder: string, host = hostname()): boolean {
  const [label, holderHost, pid] = holder.split('|');
  if (!label || holderHost !== host || !/^[0-9]+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: number }).code === 11000;
}

export async function acquireLease(
  state: Collection<IndexerStateRecord>,
  /** `host`: the name the lease records (config INDEXER_HOST; the machine's name by default). */
  opts: { ttlMs: number; label: string; now?: () => Date; host?: string },
): Promise<Lease> {
  const now = opts.now ?? (() => new Date());
  const host = opts.host ?? hostname();
  const holder = `${opts.label}|${host}|${process.pid}|${randomUUID().slice(0, 8)}`;
  const expiry = (): Date => new Date(now().getTime() + opts.ttlMs);
  try {
    await state.updateOne(
      { _id: LEASE_ID, $or: [{ expires_at: { $lt: now() } }, { holder }] },
      { $set: { holder, expires_at: expiry(), acquired_at: now() } },
      { upsert: true },
    );
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const current = await state.findOne({ _id: LEASE_ID });
    const held = String(current?.holder ?? 'unknown');
    const taken =
      holderIsDeadHere(held, host) &&
      (await state.updateOne({ _id: LEASE_ID, holder: held }, { $set: { holder, expires_at: expiry(), acquired_at: now() } })).modifiedCount === 1;
    if (!taken) throw new LeaseHeldError(held, (current?.expires_at as Date) ?? now());
  }
  return {
    holder,
    async renew() {
      const res = await state.updateOne({ _id: LEASE_ID, holder }, { $set: { expires_at: expiry() } });
      if (res.matchedCount !== 1) throw new LeaseLostError();
    },
    async release() {
      await state.deleteOne({ _id: LEASE_ID, holder });
    },
  };
}
