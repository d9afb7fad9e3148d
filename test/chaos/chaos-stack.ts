/**
 * The fault run's own stack: a three-node Elasticsearch cluster and a Mongo-wire server from
 * stack/start.sh, in a cache folder and on ports of their own, so faults never touch the stack
 * that tests and `npm start` use. The downloads are borrowed from the usual cache when it has them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

const STACK = path.resolve(__dirname, '../../stack');

export interface ChaosStack {
  esUrl: string;
  mongoUrl: string;
  /** Pids of the Elasticsearch nodes, in node order ('' for a node that is down). */
  esPids(): Promise<string[]>;
  mongoPid(): Promise<number>;
  /** Starts whatever is down (a killed node, the stopped MongoDB) and waits until all answer. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const ES_VERSION_ZIP = 'elasticsearch-8.19.21.zip';

function borrowDownloads(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const f of [ES_VERSION_ZIP, `${ES_VERSION_ZIP}.sha1`]) {
    if (!existsSync(path.join(from, f)) || existsSync(path.join(to, f))) continue;
    try {
      linkSync(path.join(from, f), path.join(to, f));
    } catch {
      copyFileSync(path.join(from, f), path.join(to, f));
    }
  }
  const jars = path.join(from, 'mongo-java-server');
  if (existsSync(jars) && !existsSync(path.join(to, 'mongo-java-server'))) cpSync(jars, path.join(to, 'mongo-java-server'), { recursive: true });
}

export function chaosStack(opts: { nodes: number; esPort: number; mongoPort: number }): ChaosStack {
  const usual = process.env.CATALOG_STACK_DIR ?? path.join(homedir(), '.cache/catalog-stack');
  const dir = process.env.CHAOS_STACK_DIR ?? path.join(homedir(), '.cache/catalog-chaos');
  borrowDownloads(usual, dir);
  const { ES_URL: _es, MONGO_URL: _mongo, ...rest } = process.env;
  const env = {
    ...rest,
    CATALOG_STACK_DIR: dir,
    STACK_ES_NODES: String(opts.nodes),
    ES_PORT: String(opts.esPort),
    ES_TRANSPORT_PORT: String(opts.esPort + 10_100),
    MONGO_PORT: String(opts.mongoPort),
  };
  // The first start may download and unpack: it blocks. Later calls run while the load goes on.
  const runNow = (script: string, args: string[] = []): string =>
    execFileSync('bash', [path.join(STACK, script), ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 15 * 60_000 });
  const run = async (script: string, args: string[] = []): Promise<string> =>
    (await promisify(execFile)('bash', [path.join(STACK, script), ...args], { env, encoding: 'utf8', timeout: 10 * 60_000 })).stdout;
  const values = (out: string): Record<string, string> =>
    Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((l) => l.split('=', 2) as [string, string]),
    );
  const started = values(runNow('start.sh'));
  return {
    esUrl: started.ES_URL,
    mongoUrl: started.MONGO_URL,
    esPids: async () => values(await run('status.sh', ['--pids'])).ES_PIDS.split(','),
    mongoPid: async () => Number(values(await run('status.sh', ['--pids'])).MONGO_PID),
    start: async () => void (await run('start.sh')),
    stop: async () => void (await run('stop.sh')),
  };
}
