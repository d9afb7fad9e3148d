/**
 * How cost grows with the inventory: the same generated markets at 25,000, 100,000 and 400,000 homes
 * (BENCH_SCALE_SIZES), each in a world of its own (database and alias; the bench world is reused at
 * its size). For each: the full rebuild alone, the index's size, and at concurrency 1 the dated
 * market search and the national-zoom viewport through a service process, with the same
 * Elasticsearch requests replayed alone beside them. A table, and a plot of each figure against the
 * smallest world's (docs/scale.svg) drawn with Vega-Lite.
 */
import { writeFileSync } from 'node:fs';
import type { TopLevelSpec } from 'vega-lite' with { 'resolution-mode': 'import' };
import type { Config } from '../../services/kernel/config';
import { startService } from '../../services/main';
import { connectMongo } from '../../services/kernel/store/mongo';
import { addDays } from '../../services/kernel/engine/dates';
import { answerSearch } from '../../services/tools/search-common';
import type { SearchArgs } from '../../services/tools/search-args';
import { answerMap, type MapArgs } from '../../services/tools/search-on-map';
import { sendRoundTrip, type RoundTrip } from '../../services/search/shared/search-transport';
import { runIndexerJob } from '../../indexer/runner';
import { DEMO_SEED, seedDemoInventory } from '../../stack/demo/demo-inventory';
import { fmt, runLoad, storeLoad, type Probe } from './load';
import { startServiceProcess } from './service-process';
import type { BenchContext } from './store-bench';

const QUERIES = 100;
const NATIONAL: MapArgs = { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 };
const GET_NAMES: Record<string, string> = { start_date: 'check_in', end_date: 'check_out' };
const query = (args: object): string => new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [GET_NAMES[k] ?? k, String(v)])).toString();

/** The sizes measured: BENCH_SCALE_SIZES (comma list), else 25,000, 100,000 and 400,000 homes. */
export function scaleSizes(env: NodeJS.ProcessEnv = process.env): number[] {
  const listed = env.BENCH_SCALE_SIZES?.split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  return listed && listed.length > 0 ? listed : [25_000, 100_000, 400_000];
}

export interface ScaleRow {
  homes: number;
  rebuildS: number;
  indexMb: number;
  searchMs: number;
  searchEsMs: number;
  viewportMs: number;
  viewportEsMs: number;
}

/** The world of one size: the bench world at its own size, else `catalog_scale_<n>` / `scale-<n>-homes`. */
function worldOf(ctx: BenchContext, homes: number): Config {
  if (homes === ctx.homes) return ctx.config;
  return { ...ctx.config, mongoDb: `catalog_scale_${homes}`, homesAlias: `scale-${homes}-homes`, homesIndexPrefix: `scale-${homes}-homes` };
}

async function measureWorld(ctx: BenchContext, homes: number, seconds: number): Promise<ScaleRow> {
  const config = worldOf(ctx, homes);
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  try {
    if ((await mongo.collections.homes.estimatedDocumentCount()) !== homes) {
      ctx.say(`- seeding ${homes.toLocaleString('en-US')} homes into \`${config.mongoDb}\``);
      await seedDemoInventory(mongo.collections, { seed: DEMO_SEED, homes, today: ctx.today });
    }
    const started = Date.now();
    let swapped = 0;
    await runIndexerJob('full', ctx.es, mongo.collections, config, { onPhase: (p) => void (p === 'swapped' && (swapped = (Date.now() - started) / 1000)) });
    // Flushed first: right after the swap the size the stats report can lag the merged segments.
    await ctx.es.indices.flush({ index: config.homesAlias });
    const [built] = await ctx.es.cat.indices({ index: config.homesAlias, format: 'json', bytes: 'b' });
    const markets = (await mongo.collections.markets.find({}).toArray()).map((m) => m.slug);

    // The questions, and the Elasticsearch requests each sends, from a service in this process on the world.
    const inProcess = await startService({ ...config, port: 0, adminPort: 0 });
    const s = ctx.sample.fork(`scale-${homes}`);
    const searches: Array<{ args: SearchArgs; trips: RoundTrip[] }> = [];
    const viewports: Array<{ args: MapArgs; trips: RoundTrip[] }> = [];
    try {
      for (let i = 0; i < QUERIES; i++) {
        const start = addDays(ctx.today, s.int(1, 300));
        const args: SearchArgs = { market: s.pick(markets), start_date: start, end_date: addDays(start, s.int(2, 120)) };
        const trips: RoundTrip[] = [];
        await answerSearch(inProcess.deps, args, ctx.today, 0, 25, (t) => trips.push(t));
        searches.push({ args, trips });
        const view: MapArgs = { ...NATIONAL, sort_by: s.pick(['price_asc', 'newest', 'rating_desc'] as const) };
        const viewTrips: RoundTrip[] = [];
        await answerMap(inProcess.deps, view, ctx.today, (t) => viewTrips.push(t));
        viewports.push({ args: view, trips: viewTrips });
      }
    } finally {
      await inProcess.close();
    }
    const service = await startServiceProcess({
      MONGO_DB: config.mongoDb,
      HOMES_ALIAS: config.homesAlias,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_POINTS: '1000000000',
      // The viewport's cost as computed: its few questions would otherwise be answered from kept answers.
      MAP_CACHE_MB: '0',
      MAX_IN_FLIGHT: '100000',
      MAX_IN_FLIGHT_PER_CLIENT: '100000',
    });
    try {
      let k = 0;
      const through = (path: string, items: Array<{ args: object }>) =>
        runLoad(service.url, (): Probe => ({ path: `${path}?${query(items[k++ % items.length].args)}` }), { connections: 1, seconds });
      const alone = (items: Array<{ trips: RoundTrip[] }>) =>
        storeLoad(
          async () => {
            for (const trip of items[k++ % items.length].trips) await sendRoundTrip(ctx.es, config.homesAlias, trip);
          },
          1,
          seconds,
        );
      return {
        homes,
        rebuildS: swapped,
        indexMb: Number(built['store.size']) / 2 ** 20,
        searchMs: (await through('/api/public/search', searches)).p50,
        searchEsMs: (await alone(searches)).p50,
        viewportMs: (await through('/api/public/map-search', viewports)).p50,
        viewportEsMs: (await alone(viewports)).p50,
      };
    } finally {
      await service.close();
    }
  } finally {
    await mongo.close();
  }
}

/** Each figure over the smallest world's, against the homes, on log-log axes, beside a line in proportion to the homes. */
export async function plot(rows: readonly ScaleRow[], file: string): Promise<void> {
  const first = rows[0];
  const series: Array<[string, (r: ScaleRow) => number]> = [
    ['in proportion to the homes', (r) => r.homes],
    ['full rebuild (until serving)', (r) => r.rebuildS],
    ['index size', (r) => r.indexMb],
    ['dated market search, service p50', (r) => r.searchMs],
    ['dated market search, ES alone p50', (r) => r.searchEsMs],
    ['national-zoom viewport, service p50', (r) => r.viewportMs],
    ['national-zoom viewport, ES alone p50', (r) => r.viewportEsMs],
  ];
  const values = rows.flatMap((r) => series.map(([figure, of]) => ({ homes: r.homes, figure, growth: of(r) / of(first) })));
  const spec: TopLevelSpec = {
    title: `How cost grows with the inventory (each figure over its value at ${first.homes.toLocaleString('en-US')} homes)`,
    width: 560,
    height: 340,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'homes', type: 'quantitative', scale: { type: 'log', nice: false, domain: [first.homes, rows[rows.length - 1].homes] }, title: 'homes' },
      y: { field: 'growth', type: 'quantitative', scale: { type: 'log' }, title: 'times the smallest world' },
      color: { field: 'figure', type: 'nominal', title: null, legend: { labelLimit: 400 } },
      strokeDash: { condition: { test: "datum.figure === 'in proportion to the homes'", value: [4, 4] }, value: [1, 0] },
    },
  };
  // ECMAScript modules only (with a top-level await): loaded when the plot is drawn.
  const vega = await import('vega');
  const { compile } = await import('vega-lite');
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  writeFileSync(file, await view.toSVG());
}

export async function scaleBench(ctx: BenchContext, seconds: number): Promise<void> {
  ctx.say('## How cost grows with the inventory (the same markets; concurrency 1)');
  ctx.say('');
  const rows: ScaleRow[] = [];
  for (const homes of scaleSizes()) rows.push(await measureWorld(ctx, homes, seconds));
  ctx.say(
    '| homes | full rebuild alone, until serving | index on disk | dated market search p50: service / ES alone | national-zoom viewport p50: service / ES alone |',
  );
  ctx.say('|---|---|---|---|---|');
  for (const r of rows) {
    ctx.say(
      `| ${r.homes.toLocaleString('en-US')} | ${r.rebuildS.toFixed(0)} s | ${r.indexMb.toFixed(0)} MB | ${fmt(r.searchMs)} / ${fmt(r.searchEsMs)} ms | ${fmt(r.viewportMs)} / ${fmt(r.viewportEsMs)} ms |`,
    );
  }
  await plot(rows, 'docs/scale.svg');
  ctx.say('');
  ctx.say('Plotted in docs/scale.svg.');
  ctx.say('');
}
