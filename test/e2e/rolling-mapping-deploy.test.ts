/**
 * A mapping change deployed copy by copy with no failed read (docs/operations.md, "Deploying a mapping
 * change"). Two builds of the service: the shipped mapping, and one whose mapping file differs
 * (HOMES_MAPPING_FILE: `market_slug` with eager global ordinals, another mapping version). Two copies
 * behind HAProxy with ops/haproxy.cfg, searches sent without a pause through it; the new version
 * prepared with `npm run reindex -- --full --for-version`, a change applied to both versions' indexes
 * meanwhile, then each copy drained at the balancer, stopped and started as the new build. Every search
 * answers 200, and the old index goes once no copy reads it. A copy of the new build started without
 * the prepared index is not ready and answers a search 503 (what a switch without preparing serves):
 * the test can fail.
 *
 * @run-alone it runs two service copies, HAProxy and the indexer as processes of their own.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { haproxy, serviceCopy, sleep, type LoadBalancer, type Managed } from '../chaos/fleet';
import { freePort } from '../support/free-port';
import { dropWorld, seedWorld, testConfig } from '../support/fixture';
import { aliasTargets, MAPPING_VERSION } from '../../indexer/es-admin';
import { versionIndexes } from '../../indexer/index-versions';
import { mappingVersionOf, versionedAlias } from '../../services/kernel/store/mapping-version';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import type { Config } from '../../services/kernel/config';
import type { EsClient } from '../../services/kernel/store/es-client';
import type { MongoHandle } from '../../services/kernel/store/mongo';

const ROOT = path.resolve(__dirname, '../..');

/** The new build's mapping: the shipped one with a real change of one field's mapping. */
function newBuildMapping(): { file: string; version: string } {
  const mapping = JSON.parse(readFileSync(path.join(ROOT, 'mappings/homes.json'), 'utf8')) as { mappings: { properties: Record<string, unknown> } };
  mapping.mappings.properties.market_slug = { type: 'keyword', eager_global_ordinals: true };
  const file = path.join(tmpdir(), `homes-mapping-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(mapping));
  return { file, version: mappingVersionOf(mapping) };
}

/** `npm run reindex -- <args>` as a process of the given build. */
function reindex(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/reindex-cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b) => (output += String(b)));
  child.stderr.on('data', (b) => (output += String(b)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

interface Load {
  answered: number;
  failures: string[];
  stop(): Promise<void>;
}

/** `connections` clients each sending its next search as soon as the last one answered. */
function searches(url: string, paths: string[], connections = 4): Load {
  let stopped = false;
  const load = { answered: 0, failures: [] as string[] };
  const loops = Array.from({ length: connections }, async (_, c) => {
    for (let i = c; !stopped; i += connections) {
      const p = paths[i % paths.length]!;
      try {
        const res = await fetch(url + p, { signal: AbortSignal.timeout(10_000) });
        const body = await res.text();
        if (res.status !== 200) load.failures.push(`${res.status} ${p} ${body.slice(0, 160)}`);
      } catch (err) {
        load.failures.push(`${p}: ${(err as Error).message}`);
      }
      load.answered += 1;
    }
  });
  return {
    get answered() {
      return load.answered;
    },
    failures: load.failures,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(200);
  }
}

interface World {
  config: Config;
  es: EsClient;
  mongo: MongoHandle;
  env: Record<string, string>;
  newBuild: { file: string; version: string };
  lb: LoadBalancer;
  copies: Managed[];
  ports: number[];
  paths: string[];
}

async function startWorld(): Promise<World> {
  const config = testConfig();
  const { es, mongo, today } = await seedWorld(config, 300);
  const env = {
    ES_URL: config.esUrl,
    MONGO_URL: config.mongoUrl,
    MONGO_DB: config.mongoDb,
    HOMES_ALIAS: config.homesAlias,
    HOMES_MAPPING_FILE: '',
    LOG_LEVEL: 'warn',
    TRUSTED_PROXIES: 'loopback',
    MAX_IN_FLIGHT: '1000',
    MAX_IN_FLIGHT_PER_CLIENT: '1000',
    RATE_LIMIT_POINTS: '1000000000',
    RATE_LIMIT_ES_MS_PER_POINT: '1000000000',
    INDEX_REPLICAS: '0',
  };
  const ports = [await freePort(), await freePort()];
  const copies = ports.map((port, i) => serviceCopy(`old copy ${i + 1} ${config.homesAlias}`, port, env));
  const lb = haproxy(await freePort(), [ports[0]!, ports[1]!], path.join(tmpdir(), `catalog-lb-${randomBytes(4).toString('hex')}.sock`));
  await Promise.all(copies.map((c) => c.start()));
  await lb.start();
  const markets = (await mongo.collections.markets.find({}, { projection: { slug: 1 } }).toArray()).map((m) => m.slug);
  const inMonth = (days: number): string => new Date(Date.parse(today) + days * 86_400_000).toISOString().slice(0, 10);
  const paths = markets.flatMap((m) => [
    `/api/public/search?market=${m}`,
    `/api/public/search?market=${m}&check_in=${inMonth(30)}&check_out=${inMonth(61)}&sort_by=price_asc`,
  ]);
  return { config, es, mongo, env, newBuild: newBuildMapping(), lb, copies, ports, paths };
}

async function closeWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  for (const c of w.copies) await c.kill('SIGTERM');
  await w.lb.kill('SIGTERM');
  rmSync(w.newBuild.file, { force: true });
  await dropWorld(w.config, w.mongo, w.es);
}

/**
 * Copy `i` out of the balancer's rotation (and its fail-open twin), stopped once its requests have
 * ended, started as the new build on the same port, and put back. `ready` says when the new copy counts
 * as started: once ready, or (no index for it yet) once it answers at all.
 */
async function switchCopy(w: World, i: number, ready: '/readyz' | '/livez'): Promise<void> {
  const name = `copy${i + 1}`;
  for (const server of [name, `${name}-open`]) await w.lb.setServerState(server, 'maint');
  await sleep(1_000);
  await w.copies[i]!.kill('SIGTERM');
  w.copies[i] = serviceCopy(`new copy ${i + 1} ${w.config.homesAlias}`, w.ports[i]!, { ...w.env, HOMES_MAPPING_FILE: w.newBuild.file }, ready);
  await w.copies[i]!.start();
  for (const server of [name, `${name}-open`]) await w.lb.setServerState(server, 'ready');
  if (ready === '/readyz') await until(`${name} back up at the balancer`, async () => (await w.lb.serverStates())[name] === 'UP');
}

const newEnv = (w: World): Record<string, string> => ({ ...w.env, HOMES_MAPPING_FILE: w.newBuild.file });

describe('a mapping change deployed copy by copy behind HAProxy', () => {
  let w: World | undefined;
  afterAll(() => closeWorld(w));

  it('prepared ahead: no search fails or answers 503, both indexes take changes, and the old one retires after the last old copy', async () => {
    w = await startWorld();
    const { es, config, newBuild } = w;
    const oldAlias = versionedAlias(config.homesAlias, MAPPING_VERSION);
    const newAlias = versionedAlias(config.homesAlias, newBuild.version);
    expect(newBuild.version).not.toBe(MAPPING_VERSION);
    const [oldIndex] = await aliasTargets(es, oldAlias);
    const load = searches(w.lb.url, w.paths);
    await sleep(1_000);

    const prepared = await reindex(['--full', '--for-version'], newEnv(w));
    expect(prepared).toMatchObject({ code: 0 });
    expect(prepared.output).toContain(`alias ${newAlias} -> `);
    const [newIndex] = await aliasTargets(es, newAlias);
    // The running copies' alias and the unversioned one have not moved.
    expect(await aliasTargets(es, oldAlias)).toEqual([oldIndex]);
    expect(await aliasTargets(es, config.homesAlias)).toEqual([oldIndex]);
    expect(newIndex).not.toBe(oldIndex);

    // A change during the deploy reaches both versions' indexes.
    const home = await w.mongo.collections.homes.findOne({ published: true, deleted_at: null });
    await w.mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { published: false } });
    await recordChanges(w.mongo.collections.inventoryChanges, 'test', { homes: [home!._id] });
    expect(await reindex(['--incremental'], newEnv(w))).toMatchObject({ code: 0 });
    for (const index of [oldIndex!, newIndex!]) expect((await es.count({ index, query: { ids: { values: [home!._id] } } })).count).toBe(0);

    await switchCopy(w, 0, '/readyz');
    // One old copy still reads the old index: a run keeps it.
    expect(await reindex(['--incremental'], newEnv(w))).toMatchObject({ code: 0 });
    expect(await aliasTargets(es, oldAlias)).toEqual([oldIndex]);
    await switchCopy(w, 1, '/readyz');
    await sleep(2_000);
    await load.stop();

    expect(load.failures).toEqual([]);
    expect(load.answered).toBeGreaterThan(100);

    // The last old copy has stopped: the next run retires its index, and the unversioned alias follows the new one.
    expect(await reindex(['--incremental'], newEnv(w))).toMatchObject({ code: 0 });
    expect((await versionIndexes(es, config.homesAlias)).map((v) => v.alias)).toEqual([newAlias]);
    expect(await es.indices.exists({ index: oldIndex! })).toBe(false);
    expect(await aliasTargets(es, config.homesAlias)).toEqual([newIndex]);
  }, 420_000);
});

describe('a new build started without its prepared index', () => {
  let w: { config: Config; es: EsClient; mongo: MongoHandle; copy: Managed; file: string } | undefined;
  afterAll(async () => {
    if (!w) return;
    await w.copy.kill('SIGTERM');
    rmSync(w.file, { force: true });
    await dropWorld(w.config, w.mongo, w.es);
  });

  it('is not ready and answers a search 503 while the old version serves: what the prepared deploy avoids', async () => {
    const config = testConfig();
    const { es, mongo, today } = await seedWorld(config, 50);
    const newBuild = newBuildMapping();
    const port = await freePort();
    const env = { ES_URL: config.esUrl, MONGO_URL: config.mongoUrl, MONGO_DB: config.mongoDb, HOMES_ALIAS: config.homesAlias, LOG_LEVEL: 'warn' };
    // Started once it answers at all: it cannot be ready without its index.
    const copy = serviceCopy(`unprepared copy ${config.homesAlias}`, port, { ...env, HOMES_MAPPING_FILE: newBuild.file }, '/livez');
    w = { config, es, mongo, copy, file: newBuild.file };
    await copy.start();
    // The old version's index is there and serving; the new build's alias is not.
    expect(await aliasTargets(es, versionedAlias(config.homesAlias, MAPPING_VERSION))).toHaveLength(1);
    expect(await aliasTargets(es, versionedAlias(config.homesAlias, newBuild.version))).toEqual([]);
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    const market = (await mongo.collections.markets.findOne({}, { projection: { slug: 1 } }))!.slug;
    const day = (n: number): string => new Date(Date.parse(today) + n * 86_400_000).toISOString().slice(0, 10);
    for (const path of [`/api/public/search?market=${market}`, `/api/public/search?market=${market}&check_in=${day(30)}&check_out=${day(61)}`]) {
      const res = await fetch(url + path);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error?: { code?: string } }).error?.code).toEqual(expect.any(String));
    }
  }, 120_000);
});
