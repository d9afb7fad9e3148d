/**
 * Lease heartbeats during a bulk load: ticked as the bulk helper takes each document, at most every few
 * seconds, without blocking it. A lost lease is remembered and raised by `check()` before the run
 * commits anything (alias swap, checkpoint).
 */
export interface BulkHeartbeat {
  tick(): void;
  check(): Promise<void>;
}

export function bulkHeartbeat(heartbeat: (() => Promise<void>) | undefined, everyMs = 5_000): BulkHeartbeat {
  let last = Date.now();
  let failure: unknown = null;
  return {
    tick() {
      if (!heartbeat || Date.now() - last <= everyMs) return;
      last = Date.now();
      heartbeat().catch((err: unknown) => {
        failure = err;
      });
    },
    async check() {
      if (failure) throw failure;
      if (heartbeat) await heartbeat();
    },
  };
}
