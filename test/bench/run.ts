/**
 * `npm run bench [-- --homes N --seconds S --soak-seconds S --only a,b]`: measures the pure hot
 * paths and the served service on the real local stack, at the benchmark size (100,000 homes by
 * default), and writes a readable report to bench-report.md (and stdout). The bench inventory lives
 * in its own database and alias (`catalog_bench`, `bench-homes`) and is reused while its size matches.
 */
import { relevanceBench } from './relevance-bench';
import { suggestBench } from './suggest-bench';
import { freshnessBench } from './freshness-bench';
import { scaleBench } from './scale-bench';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { loadConfig } from '../../services/kernel/config';
import { startService } from '../../services/main';
import { todayIso } from '../../services/kernel/engine/dates';
import { createEsClient } from '../../services/kernel/store/es-client';
import { connectMongo } from '../../services/kernel/store/mongo';
import { DEMO_SEED } from '../../stack/demo/demo-inventory';
import { pureBench } from './pure-bench';
import { sampleInventory } from './sample';
import { idleBench, indexingBench, lookupBench, type BenchContext } from './store-bench';
import { mixedLoadBench } from './mixed-load';
import { overloadBench } from './overload-bench';
import { marketToolsBench } from './market-tools-bench';
import { searchBench } from './search-bench';
import { viewportBench } from './viewport-bench';
import { rateLimitBench } from './rate-limit-bench';
import { toolServerBench } from './tool-server-bench';
import { tracesBench } from './traces-bench';
import { watchesBench } from './watches-bench';
import { httpBench } from './http-bench';
import { amplificationBench } from './amplification-bench';
import { startServiceProcess, startSwitchedProcess } from './service-process';
import { adoptUnversioned } from '../../indexer/index-versions';

/** The bench's bare server (floor-server.ts), ready once it answers `/`. */
const FLOOR = { script: 'test/bench/floor-server.ts', readyPath: '/' };

interface Options {
  homes: number;
  /** Length of each latency measurement. */
  seconds: number;
  soakSeconds: number;
  idleSeconds: number;
  only: Set<string> | null;
}

function options(argv: string[]): Options {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (flag: string, env: string, fallback: number): number => Number(get(flag) ?? process.env[env] ?? fallback);
  const only = get('--only');
  return {
    homes: num('--homes', 'BENCH_HOMES', 100_000),
    seconds: num('--seconds', 'BENCH_SECONDS', 20),
    soakSeconds: num('--soak-seconds', 'BENCH_SOAK_SECONDS', 600),
    idleSeconds: num('--idle-seconds', 'BENCH_IDLE_SECONDS', 60),
    only: only ? new Set(only.split(',')) : null,
  };
}

/** The sections in the order they run; `--only` picks some by name. */
const SECTIONS: Array<{ name: string; run: (ctx: BenchContext, o: Options) => Promise<void> }> = [
  { name: 'indexing', run: (ctx) => indexingBench(ctx) },
  { name: 'lookups', run: (ctx, o) => lookupBench(ctx, o.seconds) },
  { name: 'tool-server', run: (ctx, o) => toolServerBench(ctx, o.seconds) },
  { name: 'traces', run: (ctx, o) => tracesBench(ctx, o.seconds) },
  { name: 'http', run: (ctx, o) => httpBench(ctx, o.seconds) },
  { name: 'rate-limits', run: (ctx, o) => rateLimitBench(ctx, o.seconds) },
  { name: 'amplification', run: (ctx) => amplificationBench(ctx) },
  { name: 'market-tools', run: (ctx, o) => marketToolsBench(ctx, o.seconds) },
  { name: 'search', run: (ctx, o) => searchBench(ctx, o.seconds) },
  { name: 'viewport', run: (ctx, o) => viewportBench(ctx, o.seconds) },
  { name: 'suggest', run: (ctx, o) => suggestBench(ctx, o.seconds) },
  { name: 'relevance', run: (ctx) => relevanceBench(ctx) },
  { name: 'mixed', run: (ctx, o) => mixedLoadBench(ctx, o.soakSeconds) },
  { name: 'overload', run: (ctx, o) => overloadBench(ctx, o.seconds) },
  { name: 'idle', run: (ctx, o) => idleBench(ctx, o.idleSeconds) },
  { name: 'freshness', run: (ctx, o) => freshnessBench(ctx, o.idleSeconds) },
  { name: 'watches', run: (ctx) => watchesBench(ctx) },
  // Not in a plain run: it seeds and rebuilds worlds of 25,000 to 400,000 homes (`--only scale`).
  { name: 'scale', run: (ctx, o) => (o.only?.has('scale') ? scaleBench(ctx, o.seconds) : Promise.resolve()) },
];

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const lines: string[] = [];
  const say = (line = ''): void => {
    lines.push(line);
    process.stdout.write(line + '\n');
  };
  const today = todayIso(new Date());
  say('# Benchmark report');
  say('');
  say(
    `${new Date().toISOString()}; ${o.homes} homes; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB; Elasticsearch and the Mongo-wire server of stack/ on the same machine.`,
  );
  say('');
  if (!o.only || o.only.has('pure')) pureBench(o.homes, today, say);

  const serviceEnv = {
    // BENCH_MONGO_DB / BENCH_HOMES_ALIAS: a second bench world (e.g. 10,000 homes) beside the 100,000 one.
    MONGO_DB: process.env.BENCH_MONGO_DB ?? 'catalog_bench',
    HOMES_ALIAS: process.env.BENCH_HOMES_ALIAS ?? 'bench-homes',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_POINTS: '1000000000',
    RATE_LIMIT_OVERVIEW_POINTS: '1000000000',
    RATE_LIMIT_STATIC_POINTS: '1000000000',
    // The sections measure what a copy can serve at concurrency 16 and more: no shedding under them.
    // The overload section runs a copy with the default bound.
    MAX_IN_FLIGHT: '100000',
    MAX_IN_FLIGHT_PER_CLIENT: '100000',
  };
  const config = loadConfig({ ...process.env, ...serviceEnv, PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1' });
  // Batch work (seeding, indexing) gets its own clients, as `npm run seed` and the worker do.
  const es = createEsClient(config.esUrl);
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  // A bench world indexed before versioned aliases is read under its version's alias from now on (indexer/index-versions.ts).
  await adoptUnversioned(es, mongo.collections.indexerState, config.homesAlias);
  // In-process dependencies record what each call sends to Elasticsearch; the load goes to a service
  // process of its own (started after the bench inventory exists, see serviceUrl).
  const svc = await startService(config);
  const sample = sampleInventory({ seed: DEMO_SEED, homes: o.homes, today });
  let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
  let floor: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
  const variants: Array<Awaited<ReturnType<typeof startServiceProcess>>> = [];
  const ctx: BenchContext = {
    config,
    deps: svc.deps,
    es,
    mongo: mongo.collections,
    homes: o.homes,
    today,
    sample,
    say,
    async service() {
      service ??= await startServiceProcess(serviceEnv);
      return service;
    },
    async serviceWith(env) {
      const variant = await startServiceProcess({ ...serviceEnv, ...env });
      variants.push(variant);
      return variant;
    },
    async floor() {
      floor ??= await startServiceProcess(serviceEnv, [], FLOOR);
      return floor;
    },
    async switched(kind, env) {
      const variant = await startSwitchedProcess({ ...serviceEnv, ...env }, kind === 'floor' ? FLOOR : undefined);
      variants.push(variant);
      return variant;
    },
  };
  try {
    for (const section of SECTIONS) {
      if (o.only && !o.only.has(section.name)) continue;
      // Each section draws its own questions, the same whichever sections ran before it.
      await section.run({ ...ctx, sample: sample.fork(section.name) }, o);
    }
  } finally {
    await service?.close();
    for (const v of variants) await v.close();
    await floor?.close();
    await svc.close();
    await mongo.close();
    await es.close();
  }
  writeFileSync('bench-report.md', lines.join('\n') + '\n');
  process.stdout.write('\nwritten to bench-report.md\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
