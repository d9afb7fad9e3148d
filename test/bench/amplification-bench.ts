/**
 * Amplification (docs/performance.md, "Amplification"): what one rate-limit point buys of the
 * service's processor time, of Elasticsearch's time and of bytes out, for the costliest requests
 * found (a 100-vertex polygon with a stay and facets, a map of the whole country, the building search
 * with per_page 1000 over the country, a tool search page with photos) beside ordinary ones. Every shape
 * is asked REPS times unmeasured first (the copy warm), then REPS times one after another, measured; its points are its weight plus what its answer's bytes and its
 * searches' shard-ms settle (services/transports/settled-cost.ts). Target: the costliest ≤ 5 × the median request, per point.
 */
import { request } from 'undici';
import { runIndexerJob } from '../../indexer/runner';
import { DEMO_SEED, seedDemoInventory } from '../../stack/demo/demo-inventory';
import { mulberry32 } from '../../stack/demo/prng';
import { owedPoints } from '../../services/transports/settled-cost';
import { clockTicks, cpuTicks } from './cpu';
import type { BenchContext } from './store-bench';

const REPS = 20;
const COUNTRY = [
  { latitude: 24, longitude: -125 },
  { latitude: 24, longitude: -66 },
  { latitude: 50, longitude: -66 },
  { latitude: 50, longitude: -125 },
];

interface Shape {
  title: string;
  /** The request's rate-limit weight (its tool's cost). */
  weight: number;
  ask: () => { method: 'GET' | 'POST'; path: string; body?: string };
}

interface Row {
  title: string;
  cpuMs: number;
  esMs: number;
  bytes: number;
  points: number;
}

/** Milliseconds Elasticsearch spent searching the bench index (query and fetch phases, every shard). */
async function esSearchMs(ctx: BenchContext): Promise<number> {
  const stats = await ctx.es.indices.stats({ index: ctx.config.homesAlias, metric: 'search' });
  const s = stats._all.total?.search;
  return (s?.query_time_in_millis ?? 0) + (s?.fetch_time_in_millis ?? 0);
}

/** A star of `n` vertices around a point (never crossing itself), as GET's `lat,lon;…`. */
function star(center: { latitude: number; longitude: number }, radius: number, n: number): string {
  const rnd = mulberry32(n);
  return Array.from({ length: n }, (_, k) => {
    const a = ((k + 0.8 * rnd()) * 2 * Math.PI) / n;
    const r = radius * (0.25 + 0.75 * rnd());
    return `${(center.latitude + r * Math.sin(a)).toFixed(5)},${(center.longitude + r * Math.cos(a) * 1.3).toFixed(5)}`;
  }).join(';');
}

const toolCall = (name: string, args: Record<string, unknown>) => ({
  method: 'POST' as const,
  path: '/mcp/public',
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
});

async function measure(ctx: BenchContext, svc: { url: string; pid: number }, shape: Shape): Promise<Row> {
  const asks = Array.from({ length: REPS }, shape.ask);
  const cpu0 = cpuTicks(svc.pid) ?? 0;
  const es0 = await esSearchMs(ctx);
  let bytes = 0;
  let points = 0;
  for (const a of asks) {
    const before = await esSearchMs(ctx);
    const res = await request(svc.url + a.path, {
      method: a.method,
      body: a.body,
      headers: {
        'accept-encoding': 'identity',
        ...(a.method === 'POST' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {}),
      },
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const n = body.length;
    // A slug of the sample may be unpublished: its 404 is a read too.
    if (res.statusCode !== 200 && res.statusCode !== 404) throw new Error(`${shape.title} ${a.path}: ${res.statusCode} ${body.toString('utf8', 0, 300)}`);
    bytes += n;
    // The service settles took × shards; the index's search stats are the bench's measure of the same shard-ms.
    const shardMs = (await esSearchMs(ctx)) - before;
    points += shape.weight + owedPoints(n, shape.weight, { shardMs, msPerPoint: ctx.config.rateLimit.esMsPerPoint });
  }
  const cpuMs = ((((cpuTicks(svc.pid) ?? 0) - cpu0) / clockTicks()) * 1_000) / REPS;
  const esMs = ((await esSearchMs(ctx)) - es0) / REPS;
  return { title: shape.title, cpuMs, esMs, bytes: bytes / REPS, points: points / REPS };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function amplificationBench(ctx: BenchContext): Promise<void> {
  const { say, sample, mongo, es, config } = ctx;
  // A world of its own size may be asked for (--homes): seeded and built here when the bench database does not hold it.
  if ((await mongo.homes.estimatedDocumentCount()) !== ctx.homes) await seedDemoInventory(mongo, { seed: DEMO_SEED, homes: ctx.homes, today: ctx.today });
  if ((await es.indices.existsAlias({ name: config.homesAlias })) === false) await runIndexerJob('full', es, mongo, config);
  const svc = await ctx.service();
  const place = async () => {
    const p = await mongo.properties.findOne({ market_slug: sample.marketSlug() });
    return { latitude: p?.latitude ?? 40.75, longitude: p?.longitude ?? -73.98 };
  };
  const centre = await place();
  const dated = () => {
    const stay = sample.stay();
    return { check_in: stay.start, check_out: stay.end };
  };
  const polygon100 = star(centre, 0.3, 100);
  const shapes: Shape[] = [
    { title: 'apartment read (GET)', weight: 1, ask: () => ({ method: 'GET', path: `/api/public/homes/${sample.slug()}` }) },
    {
      title: 'market search, dated, 25 homes (GET)',
      weight: 2,
      ask: () => ({ method: 'GET', path: `/api/public/search?${new URLSearchParams({ market: sample.marketSlug(), ...dated(), per_page: '25' })}` }),
    },
    {
      title: 'market search, dated, facets (GET)',
      weight: 2,
      ask: () => ({ method: 'GET', path: `/api/public/search?${new URLSearchParams({ market: sample.marketSlug(), ...dated(), facets: 'true' })}` }),
    },
    {
      title: '100-vertex polygon, dated, bedrooms, facets (GET)',
      weight: 2,
      ask: () => ({
        method: 'GET',
        path: `/api/public/search?${new URLSearchParams({ polygon: polygon100, ...dated(), bedrooms: '1', max_bedrooms: '2', facets: 'true' })}`,
      }),
    },
    {
      title: 'map of the country (GET)',
      weight: 4,
      ask: () => ({ method: 'GET', path: `/api/public/map-search?polygon=${COUNTRY.map((v) => `${v.latitude},${v.longitude}`).join(';')}` }),
    },
    {
      title: 'search_apartments_tool, 40 homes, photos',
      weight: 2,
      ask: () => toolCall('search_apartments_tool', { market: sample.marketSlug(), per_page: 40 }),
    },
    { title: 'search_properties_tool, a market', weight: 4, ask: () => toolCall('search_properties_tool', { market: sample.marketSlug() }) },
    {
      title: 'search_properties_tool, country, per_page 1000',
      weight: 4,
      ask: () => toolCall('search_properties_tool', { polygon: COUNTRY, per_page: 1000 }),
    },
  ];
  // Every shape asked once over before any is measured: a freshly started copy compiles its paths on
  // their first calls, which is not what a client who keeps calling costs it.
  for (const shape of shapes) await measure(ctx, svc, shape);
  const rows: Row[] = [];
  for (const shape of shapes) rows.push(await measure(ctx, svc, shape));
  const per = (r: Row) => ({ cpu: r.cpuMs / r.points, es: r.esMs / r.points, kb: r.bytes / 1024 / r.points });
  const med = { cpu: median(rows.map((r) => per(r).cpu)), es: median(rows.map((r) => per(r).es)), kb: median(rows.map((r) => per(r).kb)) };

  say(`## Amplification (${REPS} calls each, one at a time; ${ctx.homes} homes)`);
  say('');
  say('| request | points | service CPU ms | Elasticsearch ms | KiB out | CPU ms / point | ES ms / point | KiB / point |');
  say('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const p = per(r);
    say(
      `| ${r.title} | ${r.points.toFixed(1)} | ${r.cpuMs.toFixed(0)} | ${r.esMs.toFixed(0)} | ${(r.bytes / 1024).toFixed(0)} | ` +
        `${p.cpu.toFixed(1)} | ${p.es.toFixed(1)} | ${p.kb.toFixed(0)} |`,
    );
  }
  const worst = (key: 'cpu' | 'es' | 'kb') => Math.max(...rows.map((r) => per(r)[key])) / (med[key] || 1);
  say(`| **costliest ÷ median, per point** (target ≤ 5) | | | | | ${worst('cpu').toFixed(1)} × | ${worst('es').toFixed(1)} × | ${worst('kb').toFixed(1)} × |`);
  say('');
}
