/**
 * promtool, for the tests of ops/prometheus/: Debian's `prometheus` package unpacked into the stack's
 * cache by stack/promtool.sh (which .ci/run calls too), fetched there when missing.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
let found: string | undefined;

/** The path of promtool, installing it first when missing; throws with the script's own words when it cannot. */
export function promtoolPath(): string {
  if (found) return found;
  const res = spawnSync('bash', [path.join(root, 'stack/promtool.sh')], { cwd: root, encoding: 'utf8', timeout: 10 * 60_000 });
  if (res.status !== 0) {
    throw new Error(`promtool is not available (bash stack/promtool.sh exited ${res.status ?? res.signal}):\n${res.stderr || res.error?.message}`);
  }
  found = res.stdout.trim().split('\n').pop()!;
  return found;
}

/** Runs promtool with `args` in `cwd`: its exit status and everything it printed. */
export function promtool(args: readonly string[], cwd = root): { status: number | null; output: string } {
  const res = spawnSync(promtoolPath(), args, { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}
