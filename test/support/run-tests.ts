/**
 * The test runner behind `npm test`, `npm run test:unit` and `npm run test:integration`: jest on two
 * workers for every file that shares nothing, then, one at a time, the few files that say they must
 * run alone (a `@run-alone` line in their first comment: they freeze or restart the shared stack, or
 * start a cluster or a build of their own). At the end, the slowest ten files and one closing line.
 *
 *   tsx test/support/run-tests.ts [all|unit|integration] [jest flags, e.g. --bail]
 *
 * One file alone, while working on it: `npx jest test/e2e/get-quote.test.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aloneFiles, slowestFiles, summaryLine, type JestJson } from './test-runs';

const root = path.resolve(__dirname, '../..');
const tier = process.argv[2] ?? 'all';
const extra = process.argv.slice(3);
const projects: Record<string, string[]> = { all: [], unit: ['--selectProjects', 'unit'], integration: ['--selectProjects', 'integration'] };
if (!(tier in projects)) {
  process.stderr.write(`run-tests: unknown tier "${tier}" (all, unit or integration)\n`);
  process.exit(2);
}

const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const out = mkdtempSync(path.join(tmpdir(), 'catalog-tests-'));
const alone = tier === 'unit' ? [] : aloneFiles(root);
const runs: JestJson[] = [];
// The unit tier is the quick loop: property tests run a quarter of their cases (test/support/property-runs.ts).
const env = tier === 'unit' ? { ...process.env, PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? 'quick' } : process.env;
let failed = false;

function run(name: string, args: string[]): void {
  const file = path.join(out, `${name}.json`);
  const started = Date.now();
  const res = spawnSync(process.execPath, [jest, ...projects[tier]!, ...args, '--json', `--outputFile=${file}`, ...extra], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  failed ||= res.status !== 0;
  try {
    runs.push(JSON.parse(readFileSync(file, 'utf8')) as JestJson);
  } catch {
    failed = true; // jest wrote no report: it could not start, which the output above says
  }
  process.stdout.write(`run-tests: ${name} took ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

const started = Date.now();
// Two workers on a 2-core machine: each worker's files wait on the stores about half the time.
run('parallel', ['--maxWorkers=2', ...alone.flatMap((f) => ['--testPathIgnorePatterns', f])]);
if (alone.length > 0) run('alone', ['--runInBand', '--runTestsByPath', ...alone]);
rmSync(out, { recursive: true, force: true });

process.stdout.write('\nThe slowest ten files:\n');
for (const { file, seconds } of slowestFiles(runs, root, 10)) process.stdout.write(`  ${seconds.toFixed(1).padStart(7)} s  ${file}\n`);
process.stdout.write(`\nWhole run: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.stdout.write(`${summaryLine(runs)}\n`);
process.exit(failed ? 1 : 0);
