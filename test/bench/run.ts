/**
 * `npm run bench`: measures the pure hot paths and the served endpoints on the real stack, at the
 * benchmark size (BENCH_HOMES, default 100,000 homes), and writes a readable report to
 * bench-report.md (and stdout). The bench inventory lives in its own database and alias
 * (`catalog_bench`, `bench-homes`) and is reused between runs when its size matches.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { loadConfig } from '../../services/config';
import { startService } from '../../services/main';
import { todayIso } from '../../services/engine/dates';
import { checkStay } from '../../services/engine/stay-check';
import { priceStay } from '../../services/engine/pricing';
import { toHomeDocument } from '../../indexer/document';
import { runIndexerJob } from '../../indexer/runner';
import { generateInventory } from '../../stack/demo/generate';
import { DEMO_SEED, seedDemoInventory } from '../../services/cli/demo-inventory';

const HOMES = Number(process.env.BENCH_HOMES ?? 100_000);
const lines: string[] = [];
const say = (s = ''): void => {
  lines.push(s);
  process.stdout.write(s + '\n');
};

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

async function timedAsync<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function pureBench(today: string): void {
  say('## Pure paths (one process, no I/O)');
  const inv = generateInventory({ seed: DEMO_SEED, homes: HOMES, today });
  const properties = new Map(inv.properties.map((p) => [p._id, p]));
  const markets = new Map(inv.markets.map((m) => [m.slug, m]));
  let count = 0;
  const gen = timed(() => {
    for (const _ of inv.homes) count += 1;
  });
  say(`- generate ${count} homes (lazy stream): ${(gen.ms / 1000).toFixed(1)} s`);
  let docs = 0;
  let peak = process.memoryUsage().rss;
  const build = timed(() => {
    for (const h of inv.homes) {
      toHomeDocument(h, properties.get(h.property_id)!, markets.get(h.market_slug)!, today);
      docs += 1;
      if (docs % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
  });
  say(`- toHomeDocument over ${docs} homes: ${(build.ms / 1000).toFixed(1)} s (${Math.round((docs / build.ms) * 1000)} docs/s, ${((build.ms * 1000) / docs).toFixed(0)} µs/doc), peak RSS ${mb(peak)}`);
  let quotes = 0;
  const quote = timed(() => {
    let i = 0;
    for (const h of inv.homes) {
      if (i++ >= 20_000) break;
      const stay = { kind: 'fixed' as const, start_date: today, end_date: todayPlus(today, 45) };
      checkStay(h, stay, { cats: 0, dogs: 0 }, today);
      priceStay(h, stay, { cats: 0, dogs: 0 });
      quotes += 1;
    }
  });
  say(`- checkStay + priceStay (45 nights): ${((quote.ms * 1000) / quotes).toFixed(0)} µs per stay over ${quotes} homes`);
}

function todayPlus(today: string, n: number): string {
  return new Date(Date.parse(today + 'T00:00:00Z') + n * 86_400_000).toISOString().slice(0, 10);
}

async function endpoint(url: string, title: string, path: string | (() => string), connections = 8, seconds = 8): Promise<void> {
  const paths = typeof path === 'string' ? [path] : Array.from({ length: 200 }, path);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: paths.map((p) => ({ method: 'GET', path: p })),
  });
  const errors = result.non2xx + result.errors;
  say(
    `| ${title} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p97_5} | ${result.latency.p99} | ${errors} |`,
  );
}

async function mcpCall(url: string, title: string, body: object, connections = 8, seconds = 8): Promise<void> {
  const result = await autocannon({
    url: url + '/mcp/public',
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  say(`| ${title} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p97_5} | ${result.latency.p99} | ${result.non2xx + result.errors} |`);
}

async function servedBench(today: string): Promise<void> {
  const config = loadConfig({
    ...process.env,
    MONGO_DB: 'catalog_bench',
    HOMES_ALIAS: 'bench-homes',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_POINTS: '100000000',
  });
  const svc = await startService(config);
  const { mongo, es } = svc.deps;
  try {
    say('');
    say(`## Stores (MongoDB wire: ${config.mongoUrl}, Elasticsearch: ${config.esUrl})`);
    const have = await mongo.homes.estimatedDocumentCount();
    if (have !== HOMES) {
      const seed = await timedAsync(() => seedDemoInventory(mongo, { seed: DEMO_SEED, homes: HOMES, today }));
      say(`- seed ${seed.value.homes} homes into MongoDB: ${(seed.ms / 1000).toFixed(0)} s (${Math.round((seed.value.homes / seed.ms) * 1000)} homes/s)`);
    } else {
      say(`- reusing the seeded bench inventory (${have} homes)`);
    }
    const run = await timedAsync(() => runIndexerJob('full', es, mongo, config));
    say(
      `- full rebuild: ${run.value.documents} documents in ${(run.value.duration_ms / 1000).toFixed(1)} s ` +
        `(${Math.round((run.value.documents / run.value.duration_ms) * 1000)} docs/s), alias swap included`,
    );
    const inc = await timedAsync(() => runIndexerJob('incremental', es, mongo, config));
    say(`- incremental run with nothing changed: ${(inc.ms / 1000).toFixed(2)} s`);

    const slugs = (await mongo.homes.find({ published: true }, { projection: { slug: 1 } }).limit(200).toArray()).map((h) => h.slug);
    let i = 0;
    const nextSlug = (): string => slugs[i++ % slugs.length];
    say('');
    say('## Served endpoints (autocannon, 8 connections, 8 s each, same machine)');
    say('');
    say('| endpoint | req/s | p50 ms | p97.5 ms | p99 ms | non-2xx |');
    say('|---|---|---|---|---|---|');
    await endpoint(svc.url, 'GET /api/public/markets', '/api/public/markets');
    await endpoint(svc.url, 'GET /api/public/homes/{slug}', () => `/api/public/homes/${nextSlug()}`);
    await endpoint(svc.url, 'GET /api/public/homes/{slug} dated', () => `/api/public/homes/${nextSlug()}?check_in=${todayPlus(today, 20)}&check_out=${todayPlus(today, 50)}`);
    await endpoint(svc.url, 'GET /api/public/homes/{slug}/quote', () => `/api/public/homes/${nextSlug()}/quote?check_in=${todayPlus(today, 20)}&check_out=${todayPlus(today, 50)}`);
    await endpoint(svc.url, 'GET /api/public/homes/{slug}/flex-options', () => `/api/public/homes/${nextSlug()}/flex-options`);
    await endpoint(svc.url, 'GET /api/public/policies-faq', '/api/public/policies-faq');
    await mcpCall(svc.url, 'MCP tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await mcpCall(svc.url, 'MCP tools/call list_markets_tool', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_markets_tool', arguments: {} } });
    say('');
    say(`Service RSS after the load: ${mb(process.memoryUsage().rss)} (service, bench client and autocannon share one process).`);
  } finally {
    await svc.close();
  }
}

async function main(): Promise<void> {
  const today = todayIso(new Date());
  say(`# Benchmark report`);
  say('');
  say(`${new Date().toISOString()}, ${HOMES} homes, Node ${process.version}, ${cpus().length} cores`);
  say('');
  pureBench(today);
  await servedBench(today);
  writeFileSync('bench-report.md', lines.join('\n') + '\n');
  process.stdout.write('\nwritten to bench-report.md\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
