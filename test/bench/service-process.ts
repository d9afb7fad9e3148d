/**
 * The service under load runs in its own process, as `npm run serve` runs it in production: the
 * load generator (this process) then never shares the service's event loop, and "service" rows
 * measure the service, not the service plus the client that drives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/free-port';
import { request } from 'undici';
import type { SwitchAnswer, SwitchCommand } from './tracing-switch';

export interface ServiceProcess {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/** A process started with an IPC channel: its tracing switched as it runs (./tracing-switch.ts). */
export interface SwitchedProcess extends ServiceProcess {
  /** Sends a command and waits for the process to have obeyed it. */
  ask(command: SwitchCommand): Promise<void>;
}

type Script = { script: string; readyPath: string };
const SERVICE: Script = { script: 'services/main.ts', readyPath: '/api/public/status' };

export async function startServiceProcess(env: Record<string, string>, nodeArgs: string[] = [], opts: Script = SERVICE): Promise<ServiceProcess> {
  const { child, url, close } = await spawnReady(env, nodeArgs, opts, false);
  return { url, pid: child.pid ?? 0, close };
}

/**
 * A copy of the service (or, with `opts`, of another script that answers switches) with an IPC channel:
 * the service through ./switched-service.ts.
 */
export async function startSwitchedProcess(
  env: Record<string, string>,
  opts: Script = { ...SERVICE, script: 'test/bench/switched-service.ts' },
): Promise<SwitchedProcess> {
  const { child, url, close } = await spawnReady(env, [], opts, true);
  let asked = 0;
  return {
    url,
    pid: child.pid ?? 0,
    close,
    ask(command) {
      const id = ++asked;
      return new Promise<void>((resolve, reject) => {
        const onAnswer = (answer: SwitchAnswer): void => {
          if (answer?.done !== id) return;
          child.off('message', onAnswer);
          child.off('exit', onExit);
          if (answer.error) reject(new Error(answer.error));
          else resolve();
        };
        const onExit = (): void => {
          child.off('message', onAnswer);
          reject(new Error(`the process exited before it answered ${JSON.stringify(command)}`));
        };
        child.on('message', onAnswer);
        child.once('exit', onExit);
        child.send({ ...command, id });
      });
    },
  };
}

/** Spawns `opts.script` and waits until its ready path answers 200 (60 s at most). */
async function spawnReady(
  env: Record<string, string>,
  nodeArgs: string[],
  opts: Script,
  ipc: boolean,
): Promise<{ child: ChildProcess; url: string; close(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', opts.script], {
    env: { ...process.env, ...env, PORT: String(port), ADMIN_PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ipc ? ['ignore', 'ignore', 'inherit', 'ipc'] : ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service process exited with ${child.exitCode}`);
    try {
      const res = await request(`${url}${opts.readyPath}`);
      await res.body.dump();
      if (res.statusCode === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the service process did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    url,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
