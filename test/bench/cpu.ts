/**
 * Processor time per call during a load row: how the machine's cores were shared between the
 * stores, the process in front of them and the load generator. Each local process's utime + stime
 * (/proc/<pid>/stat) before and after the row, divided by the calls made. Where there is no /proc
 * (not Linux) or a store is not a local process (its pid unknown), that figure is left out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import type { LoadResult } from './load';

export function cpuTicks(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks
  } catch {
    return null;
  }
}

let hz: number | undefined;
export function clockTicks(): number {
  hz ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return hz;
}

/** stack/status.sh --pids as a map of its lines (ES_PID=…), or null when no stack runs here. */
function stackPidLines(): Record<string, string> | null {
  const script = path.resolve(__dirname, '../../stack/status.sh');
  if (!existsSync('/proc') || !existsSync(script)) return null;
  try {
    const out = execFileSync('bash', [script, '--pids'], { encoding: 'utf8' });
    return Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((l) => l.split('=', 2) as [string, string]),
    );
  } catch {
    return null;
  }
}

/** The pids of the local stack's servers (stack/status.sh --pids); empty when none runs here. */
export function stackPids(): { es?: number; mongo?: number } {
  const pids = stackPidLines();
  if (!pids) return {};
  const n = (v: string | undefined) => (Number(v) > 0 ? Number(v) : undefined);
  return { es: n(pids.ES_PID), mongo: n(pids.MONGO_PID) };
}

/** Every node of the local stack's Elasticsearch (ES_PIDS), or none. */
export function esNodePids(): number[] {
  return (stackPidLines()?.ES_PIDS ?? '')
    .split(/[\s,]+/)
    .map(Number)
    .filter((pid) => pid > 0);
}

/** Milliseconds of processor time per call, by process name (only those whose time could be read). */
export type CpuPerCall = Partial<Record<string, number>>;

export async function withCpu(pids: Record<string, number | undefined>, load: () => Promise<LoadResult>): Promise<{ result: LoadResult; cpu: CpuPerCall }> {
  const watched = Object.entries(pids).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0);
  const before = watched.map(([, pid]) => cpuTicks(pid));
  const result = await load();
  const cpu: CpuPerCall = {};
  watched.forEach(([name, pid], i) => {
    const a = before[i];
    const b = cpuTicks(pid);
    if (a === null || b === null || result.requests === 0) return;
    cpu[name] = (((b - a) / clockTicks()) * 1_000) / result.requests;
  });
  return { result, cpu };
}

/** A load row, with the processor time of the named processes read only at concurrency 16 (the target's). */
export function withCpuAt16(
  connections: number,
  pids: Record<string, number | undefined>,
  load: () => Promise<LoadResult>,
): Promise<{ result: LoadResult; cpu: CpuPerCall }> {
  return connections === 16 ? withCpu(pids, load) : load().then((result) => ({ result, cpu: {} }));
}

const ms = (v: number | undefined): string => (v === undefined ? '' : v.toFixed(2));

/**
 * The table under a section: for each call at concurrency 16, the processor time per call of the
 * store alone, through the service and through the floor (keys `store`, `service`, `floor`, and
 * `bench` for the load generator). On a machine whose cores are all busy, the throughput a service
 * keeps is about (store + load generator) / (store + service + load generator), per call.
 */
export class CpuTable {
  private rows: string[] = [];

  add(title: string, store: string, alone: CpuPerCall, service: CpuPerCall, floor?: CpuPerCall): void {
    const cells = [alone.store, alone.bench, service.store, service.service, service.bench, floor?.store, floor?.floor].map(ms);
    this.rows.push(`| ${title} | ${store} | ${cells.join(' | ')} |`);
  }

  /** The table and a blank line after it; nothing when no row was added. */
  writeTo(say: (line: string) => void): void {
    if (this.rows.length === 0) return;
    for (const line of [
      `Processor time per call at concurrency 16, ms (utime + stime from /proc; ${cpus().length} cores, shared by every process here):`,
      '',
      '| call | store | store alone: store | load generator | through the service: store | service | load generator | through the floor: store | floor |',
      '|---|---|---|---|---|---|---|---|---|',
      ...this.rows,
      '',
    ]) {
      say(line);
    }
  }
}
