/**
 * The processes of a scaled-out deployment on one machine: service copies on fixed ports, indexer
 * workers, and HAProxy in front of the copies with the repository's own configuration
 * (ops/haproxy.cfg). Each can be killed and started again as it was.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const LOG_DIR = process.env.CHAOS_LOG_DIR ?? path.join(homedir(), '.cache/catalog-chaos/logs');
mkdirSync(LOG_DIR, { recursive: true });

export interface Managed {
  name: string;
  pid(): number;
  running(): boolean;
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function managed(name: string, command: string, args: string[], env: Record<string, string>, ready: () => Promise<boolean>): Managed {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  return {
    name,
    pid: () => child?.pid ?? 0,
    running: () => child !== null && child.exitCode === null && child.signalCode === null,
    async start() {
      // Each process's log (its JSON lines, warnings and up) in CHAOS_LOG_DIR, one file per name, kept across restarts.
      const log = openSync(path.join(LOG_DIR, `${name.replace(/\W+/g, '-')}.log`), 'a');
      const proc = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
      closeSync(log);
      child = proc;
      exited = new Promise((resolve) => proc.once('exit', () => resolve()));
      const deadline = Date.now() + 90_000;
      while (!(await ready().catch(() => false))) {
        if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode} during start`);
        if (Date.now() > deadline) throw new Error(`${name} was not ready within 90 s`);
        await sleep(250);
      }
    },
    async kill(signal = 'SIGKILL') {
      if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function answers200(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.arrayBuffer();
  return res.status === 200;
}

const tsx = (script: string): [string, string[]] => [process.execPath, ['--import', 'tsx', script]];

/** A service copy, started once it is ready (`/readyz`), or once it merely answers (`/livez`: a copy that may never get ready). */
export function serviceCopy(name: string, port: number, env: Record<string, string>, startedWhen: '/readyz' | '/livez' = '/readyz'): Managed {
  const [cmd, args] = tsx('services/main.ts');
  return managed(name, cmd, args, { ...env, PORT: String(port), ADMIN_PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' }, () =>
    answers200(`http://127.0.0.1:${port}${startedWhen}`),
  );
}

/** A worker is ready once it runs: its schedule needs no port. */
export function worker(name: string, env: Record<string, string>): Managed {
  const [cmd, args] = tsx('indexer/worker.ts');
  return managed(name, cmd, args, { ...env, NODE_ENV: 'production' }, async () => true);
}

export interface LoadBalancer extends Managed {
  url: string;
  /** The state HAProxy gives each server of the backend ("UP", "DOWN", …), by server name. */
  serverStates(): Promise<Record<string, string>>;
  /** An operator's `set server catalog/<server> state <state>` (maint: no new requests; ready: back in the rotation). */
  setServerState(server: string, state: 'ready' | 'drain' | 'maint'): Promise<void>;
}

export function haproxy(port: number, copies: [number, number], socket: string): LoadBalancer {
  const found = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error("the fault run needs HAProxy: 'apt-get install haproxy' (Debian's package)");
  }
  const url = `http://127.0.0.1:${port}`;
  const env = {
    CATALOG_LB_BIND: `127.0.0.1:${port}`,
    CATALOG_COPY1: `127.0.0.1:${copies[0]}`,
    CATALOG_COPY2: `127.0.0.1:${copies[1]}`,
    CATALOG_LB_SOCKET: socket,
  };
  const base = managed('haproxy', 'haproxy', ['-db', '-f', path.join(ROOT, 'ops/haproxy.cfg')], env, () => answers200(`${url}/livez`));
  return {
    ...base,
    url,
    serverStates: () => showStat(socket),
    setServerState: async (server, state) => {
      const answer = await adminCommand(socket, `set server catalog/${server} state ${state}\n`);
      if (answer.trim() !== '') throw new Error(`HAProxy refused "set server catalog/${server} state ${state}": ${answer.trim()}`);
    },
  };
}

/** One command on HAProxy's admin socket, and its answer. */
function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(socket);
    let text = '';
    conn.on('data', (d) => (text += d.toString()));
    conn.on('error', reject);
    conn.on('end', () => resolve(text));
    conn.write(command);
  });
}

/** `show stat` on HAProxy's admin socket: the status column of each server line of the backend. */
function showStat(socket: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(socket);
    let text = '';
    conn.on('data', (d) => (text += d.toString()));
    conn.on('error', reject);
    conn.on('end', () => {
      const [head, ...rows] = text.trim().split('\n');
      const cols = head.replace(/^# /, '').split(',');
      const at = (name: string): number => cols.indexOf(name);
      const states: Record<string, string> = {};
      for (const r of rows) {
        const c = r.split(',');
        if (c[at('pxname')] === 'catalog' && !['FRONTEND', 'BACKEND'].includes(c[at('svname')])) states[c[at('svname')]] = c[at('status')];
      }
      resolve(states);
    });
    conn.write('show stat\n');
  });
}
