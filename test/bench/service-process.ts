/**
 * The service under load runs in its own process, as `npm run serve` runs it in production: the
 * load generator (this process) then never shares the service's event loop, and "service" rows
 * measure the service, not the service plus the client that drives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/free-port';
import { request } from 'undici';

export interface ServiceProcess {
  url: string;
  pid: number;
  close(): Promise<void>;
}

export async function startServiceProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  opts: { script: string; readyPath: string } = { script: 'services/main.ts', readyPath: '/api/public/status' },
): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', opts.script], {
    env: { ...process.env, ...env, PORT: String(port), ADMIN_PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
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
    url,
    pid: child.pid ?? 0,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
