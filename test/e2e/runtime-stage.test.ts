/**
 * The container image's runtime stage, without a Docker engine (issue 21 §1): the folder the
 * Dockerfile's runtime stage lays out (the compiled output of `npm run build`, bin/, and
 * `npm ci --omit=dev --ignore-scripts`) is built in a temporary folder; the service and the worker
 * start from it with NODE_ENV=production through the same npm scripts the image uses, on the real
 * stack; readiness, a search and an indexer run are checked, and no development tool is there.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { testConfig, seedWorld, dropWorld } from '../support/fixture';
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { readFreshness } from '../../services/kernel/store/index-freshness';
import { validate } from 'dockerfile-utils';

const ROOT = path.resolve(__dirname, '../..');
let stage: string;
let config: Config;
let mongo: MongoHandle;
let es: EsClient;
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** `npm run <script>` in the stage, as the image runs it (NODE_ENV=production). */
function npmRun(script: string, env: Record<string, string>): ChildProcess {
  const npm = path.join(path.dirname(process.execPath), 'npm');
  const child = spawn(existsSync(npm) ? npm : 'npm', ['run', '--silent', script], {
    cwd: stage,
    env: { ...process.env, ...env, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  children.push(child);
  return child;
}

async function until<T>(what: string, probe: () => Promise<T | null>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  stage = mkdtempSync(path.join(os.tmpdir(), 'catalog-runtime-'));
  // What the build stage produces (npm run build, into the stage's dist/)...
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(stage, 'dist')], {
    stdio: 'inherit',
  });
  cpSync(path.join(ROOT, 'services/widgets/app'), path.join(stage, 'dist/services/widgets/app'), { recursive: true });
  // ...and what the runtime stage copies beside it, with production dependencies only.
  for (const f of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, f), path.join(stage, f));
  cpSync(path.join(ROOT, 'bin'), path.join(stage, 'bin'), { recursive: true });
  const npm = path.join(path.dirname(process.execPath), 'npm');
  execFileSync(existsSync(npm) ? npm : 'npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: stage, stdio: 'inherit' });

  config = testConfig();
  ({ mongo, es } = await seedWorld(config, 30));
}, 600_000);

afterAll(async () => {
  for (const c of children) if (c.pid && c.exitCode === null) process.kill(-c.pid, 'SIGTERM');
  if (mongo && es) await dropWorld(config, mongo, es);
  if (stage) rmSync(stage, { recursive: true, force: true });
});

describe('the runtime stage of the image', () => {
  it('holds the compiled service and commands, and no TypeScript, tsx, test runner or test code', () => {
    for (const f of ['dist/services/main.js', 'dist/indexer/worker.js', 'dist/indexer/reindex-cli.js', 'dist/indexer/import-cli.js', 'dist/stack/seed.js', 'dist/mappings/homes.json']) {
      expect({ f, exists: existsSync(path.join(stage, f)) }).toEqual({ f, exists: true });
    }
    for (const dev of ['tsx', 'typescript', 'jest', 'ts-jest', 'playwright-core', 'testcontainers']) {
      expect({ dev, installed: existsSync(path.join(stage, 'node_modules', dev)) }).toEqual({ dev, installed: false });
    }
    expect(existsSync(path.join(stage, 'dist/test'))).toBe(false);
    // The Dockerfile copies exactly this: the build's dist/, bin/ and a production install.
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/npm ci --omit=dev --ignore-scripts/);
    expect(dockerfile).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/livez/m);
    // Linted by dockerfile-utils (the Docker language server's validator): hadolint has no package
    // that installs without a download from GitHub here.
    expect(validate(dockerfile)).toEqual([]);
  });

  it('serves from compiled code with plain node: ready, and a search answers', async () => {
    const port = await freePort();
    npmRun('serve', { PORT: String(port), HOST: '127.0.0.1', MONGO_DB: config.mongoDb, HOMES_ALIAS: config.homesAlias, ES_URL: config.esUrl, MONGO_URL: config.mongoUrl });
    const url = `http://127.0.0.1:${port}`;
    await until('readiness', async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : null));
    const market = (await mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const res = await fetch(`${url}/api/public/search?market=${market}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { homes: unknown[] };
    expect(body.homes.length).toBeGreaterThan(0);
    // The widgets are bundled from the copied sources at start: their documents answer.
    expect((await fetch(`${url}/api/public/tools`)).status).toBe(200);
  });

  it('runs the worker from compiled code: its first incremental run is recorded', async () => {
    const before = (await readFreshness(mongo.collections.indexerState)).last_run?.finished_at ?? new Date(0);
    npmRun('worker', { MONGO_DB: config.mongoDb, HOMES_ALIAS: config.homesAlias, ES_URL: config.esUrl, MONGO_URL: config.mongoUrl });
    const run = await until('an incremental run', async () => {
      const last = (await readFreshness(mongo.collections.indexerState)).last_run;
      return last && new Date(last.finished_at) > new Date(before) ? last : null;
    });
    expect(run.kind).toBe('incremental');
  });
});
