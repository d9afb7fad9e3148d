/**
 * /readyz asks both stores; anyone may call it on the public port, so its answer is shared: one check
 * in flight at a time, and its outcome reused for a second. A balancer that probes every second (or a
 * client that hammers it) costs the stores one check a second per copy, whatever the rate of calls.
 */
import type { Deps } from '../../deps';
import { readiness } from './health';

export type Readiness = () => ReturnType<typeof readiness>;

const REUSE_MS = 1_000;

export function sharedReadiness(deps: Deps, now: () => number = Date.now): Readiness {
  let last: { at: number; outcome: ReturnType<typeof readiness> } | null = null;
  return () => {
    const t = now();
    if (!last || t - last.at >= REUSE_MS) {
      const outcome = readiness(deps);
      // A failed check is reused as well (the same 503), not left as an unhandled rejection.
      outcome.catch(() => undefined);
      last = { at: t, outcome };
    }
    return last.outcome;
  };
}
