/**
 * What the test runner reads and prints: which files must run alone, and from jest's JSON reports
 * the slowest files and the closing line ("Tests: N passed, N failed").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The part of jest's `--json` report the runner reads. */
export interface JestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTotalTestSuites: number;
  numFailedTestSuites: number;
  testResults: { name: string; startTime: number; endTime: number }[];
}

/** A file says it must run alone with a line `@run-alone <why>` in its first comment. */
export function saysAlone(source: string): boolean {
  const head = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(source);
  return head !== null && /^\s*\*?\s*@run-alone\b/m.test(head[1]!);
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(path.join(dir, e.name)) : e.name.endsWith('.test.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** The integration and end-to-end files that must run alone, relative to the root. */
export function aloneFiles(root: string): string[] {
  return ['test/integration', 'test/e2e']
    .flatMap((d) => testFiles(path.join(root, d)))
    .filter((f) => saysAlone(readFileSync(f, 'utf8')))
    .map((f) => path.relative(root, f))
    .sort();
}

export function slowestFiles(runs: readonly JestJson[], root: string, count: number): { file: string; seconds: number }[] {
  return runs
    .flatMap((r) => r.testResults)
    .map((t) => ({ file: path.relative(root, t.name), seconds: (t.endTime - t.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
    .slice(0, count);
}

/** The plain closing line CI reads: "Tests: N passed, N failed" (", N skipped" when any were). */
export function summaryLine(runs: readonly JestJson[]): string {
  const sum = (k: 'numPassedTests' | 'numFailedTests' | 'numPendingTests' | 'numFailedTestSuites'): number => runs.reduce((n, r) => n + r[k], 0);
  // A file that fails to load has no failed test of its own: it counts as one failure.
  const failed = Math.max(sum('numFailedTests'), sum('numFailedTestSuites'));
  return `Tests: ${sum('numPassedTests')} passed, ${failed} failed${sum('numPendingTests') > 0 ? `, ${sum('numPendingTests')} skipped` : ''}`;
}
