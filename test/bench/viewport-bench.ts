/**
 * The map's viewport search: a viewport at city zoom and one over the contiguous US at
 * national zoom (clusters over the whole inventory), each through the service (GET
 * /api/public/map-search) and, beside it, the exact Elasticsearch round trips it sent, replayed
 * straight to Elasticsearch, at concurrency 1 and 16. Each shape through two copies: one that computes
 * every answer (MAP_CACHE_MB=0), and one with the default kept answers (kernel/store/generation-answers.ts),
 * asked its 50 questions again and again, as people panning the same places ask them; its first ask of
 * each is computed. Targets (docs/performance.md, "Map viewport"): p50 at most 10 ms at city zoom and
 * 15 ms at national zoom at concurrency 1, and 4 × the searches per second of the computed path at 16.
 * Then panning sessions (./panning-bench.ts): a person's 50 small moves, each a new question unless the
 * grid makes it one asked before (BENCH_SHAPES=panning runs them alone).
 */
import type { MarketRecord } from '../../services/kernel/inventory/records';
import { addDays } from '../../services/kernel/engine/dates';
import { answerMap, type MapArgs } from '../../services/tools/search-on-map';
import { sendRoundTrip, type RoundTrip } from '../../services/search/shared/search-transport';
import { request } from 'undici';
import { drain, measured, percentile, row, runLoad, storeLoad, TABLE_HEAD } from './load';
import type { BenchContext } from './store-bench';
import { panningBench } from './panning-bench';

/** Distinct queries per shape: the load cycles through them. */
const QUERIES_PER_SHAPE = 50;

interface Captured {
  args: MapArgs;
  requests: RoundTrip[];
  clusters: number;
  total: number;
}

interface Shape {
  title: string;
  args: () => MapArgs;
}

const GET_NAMES: Record<string, string> = { start_date: 'check_in', end_date: 'check_out', min_bedrooms: 'bedrooms' };
const probe = (args: MapArgs) => ({
  path: `/api/public/map-search?${new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [GET_NAMES[k] ?? k, String(v)])).toString()}`,
});

/** The contiguous US, as a map at zoom 4 frames it. */
const NATIONAL = { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 };

function shapes(ctx: BenchContext, markets: MarketRecord[]): Shape[] {
  const s = ctx.sample;
  const cities = markets.flatMap((m) => m.cities);
  // A city-zoom viewport (zoom 12: about 0.35° × 0.2° on a screen) around a display city, a little off its centre.
  const cityBox = (): MapArgs => {
    const c = s.pick(cities);
    const lat = c.latitude + s.int(-20, 20) / 1000;
    const lon = c.longitude + s.int(-20, 20) / 1000;
    return { sw_latitude: lat - 0.1, sw_longitude: lon - 0.17, ne_latitude: lat + 0.1, ne_longitude: lon + 0.17, zoom: 12 };
  };
  const dates = (): { start_date: string; end_date: string } => {
    const start = addDays(ctx.today, s.int(1, 300));
    return { start_date: start, end_date: addDays(start, s.int(2, 120)) };
  };
  return [
    { title: 'viewport at city zoom (12), undated', args: cityBox },
    { title: 'viewport at city zoom (12), dated', args: () => ({ ...cityBox(), ...dates() }) },
    {
      title: 'viewport at national zoom (4), undated: clusters over every home',
      args: () => ({ ...NATIONAL, sort_by: s.pick(['price_asc', 'newest', 'rating_desc'] as const) }),
    },
    { title: 'viewport at national zoom (4), dated: clusters over every home', args: () => ({ ...NATIONAL, ...dates() }) },
  ];
}

async function capture(ctx: BenchContext, shape: Shape): Promise<Captured> {
  const requests: RoundTrip[] = [];
  const args = shape.args();
  const answer = await answerMap(ctx.deps, args, ctx.today, (trip) => requests.push(trip));
  return { args, requests, clusters: answer.clusters?.length ?? 0, total: answer.total_count };
}

export async function viewportBench(ctx: BenchContext, seconds: number): Promise<void> {
  const markets = await ctx.mongo.markets.find({}).toArray();
  ctx.say('## Viewport search (service via GET /api/public/map-search, and the same ES requests replayed straight to ES)');
  ctx.say('');
  ctx.say(TABLE_HEAD[0]);
  ctx.say(TABLE_HEAD[1]);
  const sizes: string[] = [];
  let computed: { url: string } | undefined;
  for (const shape of shapes(ctx, markets)) {
    const queries: Captured[] = [];
    for (let i = 0; i < QUERIES_PER_SHAPE; i++) queries.push(await capture(ctx, shape));
    const totals = queries.map((q) => q.total).sort((a, b) => a - b);
    const clusters = queries.map((q) => q.clusters).sort((a, b) => a - b);
    const trips = queries.reduce((n, q) => n + q.requests.length, 0) / queries.length;
    sizes.push(`| ${shape.title} | ${percentile(totals, 50)} | ${percentile(clusters, 50)} | ${clusters[clusters.length - 1]} | ${trips.toFixed(2)} |`);
    if (!measured(shape.title)) continue;
    let k = 0;
    computed ??= await ctx.serviceWith({ MAP_CACHE_MB: '0' });
    // Each question once through the computing copy before it is timed: its code compiled, Elasticsearch's caches as the other rows find them.
    for (const q of queries) await drain((await request(computed.url + probe(q.args).path)).body);
    for (const connections of [1, 16]) {
      const viaService = await runLoad(computed.url, () => probe(queries[k++ % queries.length].args), { connections, seconds });
      ctx.say(row(`${shape.title}, service, computed every time, c=${connections}`, viaService));
      const service = await ctx.service();
      const kept = await runLoad(service.url, () => probe(queries[k++ % queries.length].args), { connections, seconds });
      ctx.say(row(`${shape.title}, service, the ${QUERIES_PER_SHAPE} questions asked again (kept answers), c=${connections}`, kept));
      const alone = await storeLoad(
        async () => {
          const q = queries[k++ % queries.length];
          for (const trip of q.requests) await sendRoundTrip(ctx.es, ctx.config.homesAlias, trip);
        },
        connections,
        seconds,
      );
      ctx.say(row(`${shape.title}, ES alone, c=${connections}`, alone));
    }
  }
  ctx.say('');
  ctx.say(`Per query (${QUERIES_PER_SHAPE} sampled queries per shape):`);
  ctx.say('');
  ctx.say('| shape | matches p50 | clusters p50 | clusters max | ES round trips per query |');
  ctx.say('|---|---|---|---|---|');
  for (const line of sizes) ctx.say(line);
  ctx.say('');
  if (measured('panning sessions')) await panningBench(ctx, markets);
}
