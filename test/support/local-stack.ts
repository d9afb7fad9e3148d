/**
 * The local stack's server processes (stack/status.sh --pids), for tests that freeze a store with
 * SIGSTOP. Null when ES_URL/MONGO_URL are not the local stack (other servers, containers): there is
 * then nothing of ours to freeze, and such tests skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function localStackPids(): { es: number; mongo: number } | null {
  const out = execFileSync('bash', [path.resolve(__dirname, '../../stack/status.sh'), '--pids'], { encoding: 'utf8' });
  const v = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
  const sameServers = process.env.ES_URL?.replace(/\/$/, '') === v.ES_URL && process.env.MONGO_URL === v.MONGO_URL;
  return sameServers && v.ES_PID && v.MONGO_PID ? { es: Number(v.ES_PID), mongo: Number(v.MONGO_PID) } : null;
}

/** Whether every thread of the process has stopped (Linux: each /proc task's state T); true where there is no /proc. */
function allThreadsStopped(pid: number): boolean {
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return true;
  return readdirSync(tasks).every((t) => {
    try {
      return /^[Tt]/.test(readFileSync(`${tasks}/${t}/stat`, 'utf8').split(') ').pop() ?? '');
    } catch {
      return true; // the thread has ended
    }
  });
}

/**
 * `work` while the process is stopped (SIGSTOP); it is continued (SIGCONT) whatever happens. The
 * work starts once every thread has stopped: a JVM's threads were seen answering for ~10 ms after
 * the signal.
 */
export async function withFrozen<T>(pid: number, work: () => Promise<T>): Promise<T> {
  process.kill(pid, 'SIGSTOP');
  try {
    const deadline = Date.now() + 2_000;
    while (!allThreadsStopped(pid)) {
      if (Date.now() > deadline) throw new Error(`process ${pid} did not stop within 2 s of SIGSTOP`);
      await new Promise((r) => setTimeout(r, 1));
    }
    return await work();
  } finally {
    process.kill(pid, 'SIGCONT');
  }
}
