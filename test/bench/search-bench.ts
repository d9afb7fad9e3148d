/**
 * The apartment search shapes (issue 8): each through the service and, beside it, the exact
 * Elasticsearch request(s) that search sent, replayed straight to Elasticsearch, at concurrency 1
 * and 16; plus how many homes reached the stay engine per query. Markets, cities, dates and points
 * are sampled over the whole inventory from a fixed seed, so two runs ask the same questions.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { MarketRecord } from '../../services/kernel/inventory/records';
import { addDays } from '../../services/kernel/engine/dates';
import { answerSearch } from '../../services/tools/search-common';
import type { SearchArgs } from '../../services/tools/search-args';
import { percentile, runLoad, row, TABLE_HEAD, type LoadResult, type Probe } from './load';
import type { BenchContext } from './store-bench';

/** Distinct queries per shape: the load cycles through them. */
const QUERIES_PER_SHAPE = 200;

interface Captured {
  args: SearchArgs;
  requests: estypes.SearchRequest[];
  priced: number;
}

/** The GET form of a search (spec: check_in, check_out, bedrooms); the service answers it like the tool. */
const GET_NAMES: Record<string, string> = { start_date: 'check_in', end_date: 'check_out', min_bedrooms: 'bedrooms' };
const probe = (args: SearchArgs): Probe => ({
  path: `/api/public/search?${new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [GET_NAMES[k] ?? k, String(v)])).toString()}`,
});

/** Closed-loop load replaying each captured search's requests, one after the other, straight to ES. */
async function esReplay(ctx: BenchContext, queries: Captured[], connections: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1_000;
  const started = process.hrtime.bigint();
  let k = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const q = queries[k++ % queries.length];
        const t = process.hrtime.bigint();
        for (const body of q.requests) await ctx.es.search({ index: ctx.config.homesAlias, ...body });
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { requests: latencies.length, rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1], statuses: { '2xx': latencies.length }, slow: 0 };
}

function shapes(ctx: BenchContext, markets: MarketRecord[]): Array<{ title: string; args: () => SearchArgs }> {
  const s = ctx.sample;
  const dates = (): { start_date: string; end_date: string } => {
    const start = addDays(ctx.today, s.int(1, 300));
    return { start_date: start, end_date: addDays(start, s.int(2, 120)) };
  };
  const city = () => s.pick(s.pick(markets).cities);
  return [
    { title: 'dated market search (default sort)', args: () => ({ market: s.pick(markets).slug, ...dates() }) },
    {
      title: 'dated city search, 3 filters + max_price',
      args: () => ({ market: city().slug, ...dates(), min_bedrooms: 1, air_conditioned: true, self_check_in: true, max_price: s.pick([150, 200, 250, 3500, 4500, 6000]) }),
    },
    {
      title: 'dated radius search (3 mi around a city point)',
      args: () => {
        const c = city();
        const m = markets.find((x) => x.cities.some((y) => y.slug === c.slug))!;
        return { market: m.slug, ...dates(), near_latitude: c.latitude, near_longitude: c.longitude, near_radius_miles: 3 };
      },
    },
    {
      title: 'Flex search with a tier',
      args: () => ({ market: s.pick(markets).slug, start_date: addDays(ctx.today, s.int(1, 300)), end_date: 'indefinite', committed_nights: s.pick([180, 270, 365]) }),
    },
  ];
}

export async function searchBench(ctx: BenchContext, seconds: number): Promise<void> {
  const markets = await ctx.mongo.markets.find({}).toArray();
  const deps = ctx.deps;
  ctx.say('## Apartment search (service via GET /api/public/search, and the same ES requests replayed straight to ES)');
  ctx.say('');
  const priced: string[] = [];
  ctx.say(TABLE_HEAD[0]);
  ctx.say(TABLE_HEAD[1]);
  for (const shape of shapes(ctx, markets)) {
    const queries: Captured[] = [];
    for (let i = 0; i < QUERIES_PER_SHAPE; i++) {
      const args = shape.args();
      const requests: estypes.SearchRequest[] = [];
      const answer = await answerSearch(deps, args, ctx.today, 0, 25, (b) => requests.push(b));
      queries.push({ args, requests, priced: answer.stats.priced });
    }
    const counts = queries.map((q) => q.priced).sort((a, b) => a - b);
    const reqs = queries.map((q) => q.requests.length).sort((a, b) => a - b);
    priced.push(
      `| ${shape.title} | ${(counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(1)} | ${percentile(counts, 50)} | ${percentile(counts, 99)} | ${counts[counts.length - 1]} | ${(reqs.reduce((a, b) => a + b, 0) / reqs.length).toFixed(2)} |`,
    );
    let k = 0;
    for (const connections of [1, 16]) {
      ctx.say(row(`${shape.title}, service, c=${connections}`, await runLoad(ctx.url, () => probe(queries[k++ % queries.length].args), { connections, seconds })));
      ctx.say(row(`${shape.title}, ES alone, c=${connections}`, await esReplay(ctx, queries, connections, seconds)));
    }
  }
  ctx.say('');
  ctx.say(`Homes that reached the stay engine per query (${QUERIES_PER_SHAPE} sampled queries per shape, first page of 25):`);
  ctx.say('');
  ctx.say('| shape | mean | p50 | p99 | max | ES requests per query |');
  ctx.say('|---|---|---|---|---|---|');
  for (const line of priced) ctx.say(line);
  ctx.say('');
}
