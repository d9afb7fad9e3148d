/**
 * Freshness: how long a change recorded through the import path (`npm run import`'s importLines)
 * takes to be searchable, with the indexer worker in its own process as in production. 100 changes
 * at random moments over the whole inventory: a price, an unpublish, each undone by the next change
 * of the same home (so the bench world stays as seeded), each timed from the end of its import to the
 * first read of the alias that shows it. And the idle worker's processor time, with the Mongo-wire
 * server's share (the watch's polls land there).
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { importLines } from '../../indexer/import-run';
import { readIndexerHistory } from '../../services/kernel/store/index-freshness';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import { clockTicks, cpuTicks, stackPids } from './cpu';
import { fmt, percentile } from './load';
import type { BenchContext } from './store-bench';

const CHANGES = 100;
/** The largest pause before a change: the moments fall anywhere in the watch's second. */
const MAX_PAUSE_MS = 2_000;
const POLL_MS = 20;

type Change = { kind: 'price'; delta: number } | { kind: 'published'; to: boolean };

async function* one(line: string): AsyncGenerator<string> {
  yield line;
}

/** The import line of a home as stored, changed (the importer stamps the times itself). */
function importLine(home: HomeRecord, change: Change): string {
  const { created_at: _c, updated_at: _u, deleted_at: _d, ...record } = home as HomeRecord & Record<string, unknown>;
  const changed =
    change.kind === 'price'
      ? { ...record, nightly_rate_cents: home.nightly_rate_cents + change.delta, monthly_rate_cents: home.monthly_rate_cents + 30 * change.delta }
      : { ...record, published: change.to };
  return JSON.stringify({ kind: 'home', record: changed });
}

export async function freshnessBench(ctx: BenchContext, idleSeconds: number): Promise<void> {
  const { say, mongo, es, config } = ctx;
  const spawnedAt = new Date();
  const worker = spawn(process.execPath, ['--import', 'tsx', 'indexer/worker.ts'], {
    env: { ...process.env, MONGO_DB: config.mongoDb, HOMES_ALIAS: config.homesAlias, LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  try {
    // Started: its first incremental run (the worker runs one at start) has ended.
    for (let waited = 0; ; waited += 200) {
      const last = (await readIndexerHistory(mongo.indexerState)).last_incremental_run;
      if (last && last.finished_at >= spawnedAt) break;
      if (waited > 120_000 || worker.exitCode !== null) throw new Error('the worker did not finish its first run');
      await sleep(200);
    }
    // Settled: the start's module loading and first collections are behind it.
    await sleep(10_000);
    const hz = clockTicks();
    const pids = { worker: worker.pid, mongo: stackPids().mongo };
    const before = { worker: cpuTicks(pids.worker ?? 0) ?? 0, mongo: pids.mongo ? (cpuTicks(pids.mongo) ?? 0) : 0 };
    await sleep(idleSeconds * 1_000);
    const idle = (pid: number | undefined, from: number): string =>
      pid ? `${((((cpuTicks(pid) ?? from) - from) / hz / idleSeconds) * 100).toFixed(2)} %` : 'n/a';

    const ids = ctx.sample.homeIds(CHANGES / 2);
    const homes = new Map((await mongo.homes.find({ _id: { $in: ids } }).toArray()).map((h) => [h._id, h]));
    const latencies: number[] = [];
    const byKind: Record<string, number[]> = { price: [], unpublish: [], republish: [] };
    for (const [i, id] of ids.entries()) {
      const home = homes.get(id);
      if (!home) continue;
      const pair: Change[] =
        i % 2 === 0
          ? [
              { kind: 'price', delta: 100 },
              { kind: 'price', delta: 0 },
            ]
          : [
              { kind: 'published', to: false },
              { kind: 'published', to: home.published },
            ];
      for (const change of pair) {
        await sleep(ctx.sample.int(0, MAX_PAUSE_MS));
        const summary = await importLines(mongo, one(importLine(home, change)));
        if (summary.errors.length > 0) throw new Error(`the import refused a change: ${summary.errors[0].reason}`);
        const t = process.hrtime.bigint();
        const wanted = (doc: { nightly_rate: number } | undefined): boolean =>
          change.kind === 'price'
            ? doc !== undefined && doc.nightly_rate === Math.round((home.nightly_rate_cents + change.delta) / 100)
            : (doc !== undefined) === change.to;
        for (;;) {
          const res = await es.search<{ nightly_rate: number }>({ index: config.homesAlias, query: { ids: { values: [id] } }, _source: ['nightly_rate'] });
          if (wanted(res.hits.hits[0]?._source)) break;
          if (Number(process.hrtime.bigint() - t) / 1e9 > 120) throw new Error(`home ${id}: a change not searchable after 120 s`);
          await sleep(POLL_MS);
        }
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        latencies.push(ms);
        byKind[change.kind === 'price' ? 'price' : change.to ? 'republish' : 'unpublish'].push(ms);
      }
    }
    latencies.sort((a, b) => a - b);
    say(`## Freshness (${latencies.length} changes through the import path, at random moments; the worker in its own process)`);
    say('');
    say('| changes | p50 ms | p95 ms | max ms | target |');
    say('|---|---|---|---|---|');
    say(`| all | ${fmt(percentile(latencies, 50))} | ${fmt(percentile(latencies, 95))} | ${fmt(latencies[latencies.length - 1])} | p95 ≤ 5,000 ms |`);
    for (const [kind, values] of Object.entries(byKind)) {
      values.sort((a, b) => a - b);
      say(`| ${kind} (${values.length}) | ${fmt(percentile(values, 50))} | ${fmt(percentile(values, 95))} | ${fmt(values[values.length - 1])} | |`);
    }
    say('');
    say(
      `Idle (${idleSeconds} s with no change; % of one core): the worker ${idle(pids.worker, before.worker)} (target ≤ 2 %), the Mongo-wire server ${idle(pids.mongo, before.mongo)}.`,
    );
    say('');
  } finally {
    if (worker.exitCode === null) worker.kill('SIGTERM');
    await exited;
  }
}
