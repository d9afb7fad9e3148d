/**
 * /readyz and the public /api/public/status ask both stores; anyone may call them on the public port,
 * so their answers are shared: one check in flight at a time, and its outcome reused for a second. A
 * balancer that probes every second (or a client that hammers them) costs the stores one check a
 * second per copy, whatever the rate of calls.
 */
import type { Deps } from '../../deps';
import { readiness } from './health';
import { statusReport } from './status';

export type Readiness = () => ReturnType<typeof readiness>;

const REUSE_MS = 1_000;

/**
 * `produce`'s outcome, asked at most once per `reuseMs` and never twice at once: a call still running
 * past `reuseMs` (a slow store) is shared until it settles. A failure is reused too, never left unhandled.
 */
export function sharedFor<T>(produce: () => Promise<T>, reuseMs = REUSE_MS, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; outcome: Promise<T>; settled: boolean } | null = null;
  return () => {
    const t = now();
    if (!last || (last.settled && t - last.at >= reuseMs)) {
      const entry = { at: t, outcome: produce(), settled: false };
      const settle = (): void => {
        entry.settled = true;
      };
      entry.outcome.then(settle, settle);
      last = entry;
    }
    return last.outcome;
  };
}

export function sharedReadiness(deps: Deps, now: () => number = Date.now): Readiness {
  return sharedFor(() => readiness(deps), REUSE_MS, now);
}

/** The whole status report (the admin port's /status, and the public one made from it), shared the same way. */
export type SharedStatus = () => ReturnType<typeof statusReport>;

/** Four Elasticsearch calls and a MongoDB ping: asked once a second at most, whoever asks. */
export function sharedStatus(deps: Deps): SharedStatus {
  return sharedFor(() => statusReport(deps));
}
