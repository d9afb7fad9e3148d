/**
 * How many cases a property test runs. `npm test` runs every one; the quick tier (`npm run test:unit`,
 * PROPERTY_RUNS=quick) runs a quarter and leaves out the counts that check how often each kind of
 * case came up: those are about the whole count, and `npm test` checks them.
 */
export const QUICK = process.env.PROPERTY_RUNS === 'quick';

export function runs(n: number): number {
  return QUICK ? Math.max(20, Math.round(n / 4)) : n;
}

/** A check of how often each kind of case came up, made on the whole count only. */
export function expectCoverage(check: () => void): void {
  if (!QUICK) check();
}
