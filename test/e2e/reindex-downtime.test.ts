/**
 * Acceptance of the indexer as ops run it: the real CLI (`npm run reindex -- --full`) as a child
 * process, twice, while clients read; and a run killed midway.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startFixture, type Fixture } from '../support/fixture';
import { aliasTargets, orphanIndexes } from '../../indexer/es-admin';

let fx: Fixture;
const root = path.resolve(__dirname, '../..');

beforeAll(async () => {
  fx = await startFixture({ homes: 300 });
});

afterAll(async () => {
  await fx?.close();
});

function runReindex(extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/reindex-cli.ts', '--full'], {
    cwd: root,
    env: {
      ...process.env,
      ES_URL: fx.config.esUrl,
      MONGO_URL: fx.config.mongoUrl,
      MONGO_DB: fx.config.mongoDb,
      HOMES_ALIAS: fx.config.homesAlias,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b) => (output += String(b)));
  child.stderr.on('data', (b) => (output += String(b)));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, output })),
  );
  return { child, done };
}

describe('npm run reindex -- --full', () => {
  it('swaps the alias twice while a loop of GET /api/public/markets never fails', async () => {
    const first = (await aliasTargets(fx.es, fx.config.homesAlias))[0];
    let stop = false;
    const failures: string[] = [];
    let requests = 0;
    const loop = (async () => {
      while (!stop) {
        const res = await fx.get('/api/public/markets');
        requests += 1;
        if (res.status !== 200 || res.body.count === 0) failures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    })();
    const seen = [first];
    for (let i = 0; i < 2; i += 1) {
      const { code, output } = await runReindex().done;
      expect({ code, output }).toMatchObject({ code: 0 });
      expect(output).toMatch(/documents\/s/);
      seen.push((await aliasTargets(fx.es, fx.config.homesAlias))[0]);
    }
    stop = true;
    await loop;
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(10);
    expect(new Set(seen).size).toBe(3);
    for (const old of seen.slice(0, 2)) expect(await fx.es.indices.exists({ index: old })).toBe(false);
  });

  it('killed midway leaves the old alias serving, and the next run leaves no orphan index', async () => {
    const before = await aliasTargets(fx.es, fx.config.homesAlias);
    // One document per bulk request makes the load slow enough to be caught in the middle.
    const { child, done } = runReindex({ INDEXER_FLUSH_BYTES: '1', INDEXER_CONCURRENCY: '1' });
    let orphans: string[] = [];
    const deadline = Date.now() + 60_000;
    while (orphans.length === 0 && Date.now() < deadline) {
      orphans = await orphanIndexes(fx.es, fx.config.homesIndexPrefix, fx.config.homesAlias);
      if (orphans.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    expect(orphans).toHaveLength(1);
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');

    expect(await aliasTargets(fx.es, fx.config.homesAlias)).toEqual(before);
    const served = await fx.get('/api/public/markets');
    expect(served.status).toBe(200);
    expect(served.body.count).toBeGreaterThan(0);

    const next = await runReindex().done;
    expect(next.code).toBe(0);
    expect(await orphanIndexes(fx.es, fx.config.homesIndexPrefix, fx.config.homesAlias)).toEqual([]);
    const after = await aliasTargets(fx.es, fx.config.homesAlias);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });
});
