/**
 * The apartment search shapes: each through the service and, beside it, the exact
 * Elasticsearch request(s) that search sent, replayed straight to Elasticsearch, at concurrency 1
 * and 16; plus how many homes reached the stay engine per query. Markets, cities, dates and points
 * are sampled over the whole inventory from a fixed seed, so two runs ask the same questions.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { MarketRecord } from '../../services/kernel/inventory/records';
import { addDays, daysBetween } from '../../services/kernel/engine/dates';
import type { StayDates } from '../../services/stays/stay-dates';
import type { HomeDocument } from '../../services/kernel/store/home-document';
import { resultPrice } from '../../services/search/shared/result-price';
import { UNCERTAIN_BATCH } from '../../services/search/apartments/facet-price-counts';
import { bandSpread, spreadInterval, type HistogramBucket } from '../../services/search/apartments/facet-price-edges';
import { priceCellOf } from '../../services/kernel/store/price-cells';
import { hitDocument, hitFields } from '../../services/search/shared/hit-fields';
import { STRADDLER_SOURCE } from '../../services/search/shared/search-body';
import { answerSearch } from '../../services/tools/search-common';
import type { SearchArgs } from '../../services/tools/search-args';
import type { PolygonArgs, PolygonVertex } from '../../services/search/shared/polygon';
import { readBuildingQuery, type BuildingArgs } from '../../services/tools/search-properties';
import { searchBuildings } from '../../services/search/buildings/run-building-search';
import { esTransport, sendRoundTrip, type RoundTrip } from '../../services/search/shared/search-transport';
import { fmt, measured, percentile, runInTurn, runLoad, row, storeLoad, TABLE_HEAD, type LoadResult, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { CpuTable, stackPids, withCpu, withCpuAt16, type CpuPerCall } from './cpu';

/** Distinct queries per shape: the load cycles through them. */
const QUERIES_PER_SHAPE = 200;
const WORDED_TITLE = 'dated market search with a two-word q (relevance)';
const PLAIN_TITLE = 'the same dated market search without q';
/** How long each shape is asked of the service, untimed, before its rows. */
const WARM_UP_SECONDS = 2;

/** The apartment search's arguments, a drawn polygon among them. */
type ListArgs = SearchArgs & PolygonArgs;

interface Captured {
  args: ListArgs | BuildingArgs;
  /** The round trips it sent to Elasticsearch, in order: one search, or the searches of one `_msearch`. */
  requests: RoundTrip[];
  priced: number;
}

/**
 * A shape's floor beyond the bare proxy: what any exact answer of that shape must do, prepared once
 * per captured query (outside the timing) and then timed at concurrency 1.
 */
interface ShapeFloor {
  title: string;
  /** The work to time, and how many homes it prices. */
  prepare: (ctx: BenchContext, q: Captured) => Promise<{ run: () => Promise<void>; priced: number }>;
}

type Shape =
  | { title: string; args: () => ListArgs; buildings?: false; floor?: ShapeFloor }
  | { title: string; args: () => BuildingArgs; buildings: true; floor?: undefined };

interface SpreadAnswer {
  facets?: { scope: { price: { lo?: { buckets: HistogramBucket[] }; hi?: { buckets: HistogramBucket[] } } } };
}

/**
 * The floor of a fixed stay's price facet: a price facet of even two buckets has one inner edge, and a
 * home whose price bounds straddle it can only be counted by its exact price. So: the edge (on the
 * bounds' histogram steps, between the first and third quartile of the lower bounds) that the fewest
 * homes straddle, and those homes' cards read from Elasticsearch and priced by the engine; no
 * aggregation, no other bucket. Whatever draws the buckets, an exact count costs at least this.
 */
const oneEdgeFloor: ShapeFloor = {
  title: 'floor: pricing only the homes straddling one edge near the median (the least straddled), read and priced',
  prepare: async (ctx, q) => {
    const args = q.args as ListArgs;
    const counting = q.requests
      .slice(1)
      .flat()
      .find((body) => body.size === UNCERTAIN_BATCH && body.search_after === undefined);
    const counted = (counting?.query as { bool?: { filter?: estypes.QueryDslQueryContainer[] } } | undefined)?.bool?.filter?.[0];
    if (typeof args.start_date !== 'string' || typeof args.end_date !== 'string' || args.end_date === 'indefinite') return { run: async () => {}, priced: 0 };
    const stay: StayDates = { kind: 'fixed', start_date: args.start_date, end_date: args.end_date, nights: daysBetween(args.start_date, args.end_date) };
    // The facets are counted in a search of their own beside the page's, in the first round trip.
    const counts = (await sendRoundTrip(ctx.es, ctx.config.homesAlias, q.requests[0])).find((r) => r.aggregations !== undefined);
    // A search with facets always counts them (a market with no home for the stay too): without them the floor would measure nothing.
    if (!counts) throw new Error('the facet floor found no aggregations in the first recorded round trip');
    // No home straddled a bucket edge: nothing was priced.
    if (!counted) return { run: async () => {}, priced: 0 };
    const price = (counts.aggregations as SpreadAnswer | undefined)?.facets?.scope.price;
    const spread = bandSpread(price?.lo?.buckets ?? [], price?.hi?.buckets ?? [], spreadInterval(stay));
    if (!spread?.straddlers || !price?.lo) return { run: async () => {}, priced: 0 };
    const los = price.lo.buckets;
    const homes = los.reduce((n, b) => n + b.doc_count, 0);
    const quartile = (share: number) => los.find((_, i) => los.slice(0, i + 1).reduce((n, b) => n + b.doc_count, 0) >= share * homes)?.key ?? los[0].key;
    let edge = quartile(0.25);
    for (let e = edge; e <= quartile(0.75); e += spreadInterval(stay)) if (spread.straddlers(e) < spread.straddlers(edge)) edge = e;
    const { lo, hi } = priceCellOf(stay.start_date, stay.nights);
    const body: estypes.SearchRequest = {
      size: 10_000,
      track_total_hits: false,
      ...hitFields(STRADDLER_SOURCE),
      query: {
        bool: {
          filter: [counted],
          should: [
            { bool: { filter: [{ range: { [lo]: { lt: edge } } }, { range: { [hi]: { gte: edge } } }] } },
            { bool: { must_not: [{ exists: { field: lo } }] } },
          ],
          minimum_should_match: 1,
        },
      },
    };
    return {
      run: async () => {
        const [res] = await sendRoundTrip(ctx.es, ctx.config.homesAlias, [body]);
        for (const hit of res.hits.hits) resultPrice(hitDocument<HomeDocument>(hit), stay);
      },
      priced: spread.straddlers(edge),
    };
  },
};

/** The building search is tool-server only: its service probe is a tools/call. */
let rpc = 0;
const mcpProbe = (args: BuildingArgs): Probe => ({
  method: 'POST',
  path: '/mcp/public',
  body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name: 'search_properties_tool', arguments: args } }),
});

/** One sampled query of a shape, run in-process once to record the ES requests it sends. */
async function capture(ctx: BenchContext, shape: Shape): Promise<Captured> {
  const requests: RoundTrip[] = [];
  const record = (trip: RoundTrip) => requests.push(trip);
  if (shape.buildings) {
    const args = shape.args();
    const q = await readBuildingQuery(ctx.deps, args, ctx.today);
    const page = await searchBuildings(
      ctx.deps,
      esTransport(ctx.es, ctx.config.homesAlias, { market: q.location?.market.slug, record, routingKeys: ctx.deps.routingKeys }),
      q,
      0,
      10,
      ctx.today,
    );
    return { args, requests, priced: page.stats.priced };
  }
  const args = shape.args();
  const answer = await answerSearch(ctx.deps, args, ctx.today, 0, 25, record);
  return { args, requests, priced: answer.stats.priced };
}

/** The GET form of a search (docs/contract.md, "HTTP routes": check_in, check_out, bedrooms); the service answers it like the tool. */
const GET_NAMES: Record<string, string> = { start_date: 'check_in', latest_start_date: 'latest_check_in', end_date: 'check_out', min_bedrooms: 'bedrooms' };
const getValue = (k: string, v: unknown): string => (k === 'polygon' ? (v as PolygonVertex[]).map((p) => `${p.latitude},${p.longitude}`).join(';') : String(v));
const probe = (args: ListArgs): Probe => ({
  path: `/api/public/search?${new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [GET_NAMES[k] ?? k, getValue(k, v)])).toString()}`,
});

/** Closed-loop load replaying each captured search's requests, one after the other, straight to ES. */
async function esReplay(ctx: BenchContext, queries: Captured[], connections: number, seconds: number): Promise<LoadResult> {
  let k = 0;
  return storeLoad(
    async () => {
      const q = queries[k++ % queries.length];
      for (const trip of q.requests) await sendRoundTrip(ctx.es, ctx.config.homesAlias, trip);
    },
    connections,
    seconds,
  );
}

function shapes(ctx: BenchContext, markets: MarketRecord[]): Shape[] {
  const s = ctx.sample;
  const datesFrom = (r: typeof s): { start_date: string; end_date: string } => {
    const start = addDays(ctx.today, r.int(1, 300));
    return { start_date: start, end_date: addDays(start, r.int(2, 120)) };
  };
  const dates = () => datesFrom(s);
  const city = () => s.pick(s.pick(markets).cities);
  /**
   * A dated search inside a city-sized polygon of 20 vertices (about 4 miles from the city's point,
   * jittered) and the market that holds it. Its two shapes draw from streams of one seed, so they ask
   * the same questions: inside the polygon alone (every shard), and by the market alone.
   */
  const polygonQuestion = (r: typeof s) => {
    const m = r.pick(markets);
    const c = r.pick(m.cities);
    const start = addDays(ctx.today, r.int(1, 300));
    const polygon = Array.from({ length: 20 }, (_, k) => {
      const angle = ((k + r.int(0, 80) / 100) * 2 * Math.PI) / 20;
      const radius = 0.06 * (r.int(70, 100) / 100);
      return {
        latitude: c.latitude + radius * Math.sin(angle),
        longitude: c.longitude + (radius * Math.cos(angle)) / Math.cos((c.latitude * Math.PI) / 180),
      };
    });
    return { market: m.slug, start_date: start, end_date: addDays(start, r.int(2, 120)), polygon };
  };
  const polygonAlone = s.fork('polygon');
  const polygonMarket = s.fork('polygon');
  /** A market and a first move-in (a window's questions: the one-start and the 30-day shapes ask the same). */
  const windowQuestion = (r: typeof s) => ({ market: r.pick(markets).slug, start_date: addDays(ctx.today, r.int(1, 300)), tier: r.pick([180, 270, 365]) });
  const oneStart = s.fork('window');
  const window30 = s.fork('window');
  const window14 = s.fork('window-flex');
  /** Two words of the buildings' amenities (the demo's own), the market and stay drawn as the plain search's. */
  const WORDS = ['rooftop', 'coworking', 'lounge', 'courtyard', 'sauna', 'concierge', 'storage', 'pool', 'gym', 'lockers', 'grill', 'media'];
  const worded = s.fork('words');
  const plain = s.fork('words');
  return [
    { title: 'dated market search (default sort)', args: () => ({ market: s.pick(markets).slug, ...dates() }) },
    {
      title: WORDED_TITLE,
      args: () => ({ market: worded.pick(markets).slug, ...datesFrom(worded), q: `${worded.pick(WORDS)} ${worded.pick(WORDS)}` }),
    },
    {
      title: PLAIN_TITLE,
      args: () => {
        const market = plain.pick(markets).slug;
        const stay = datesFrom(plain);
        plain.pick(WORDS);
        plain.pick(WORDS);
        return { market, ...stay };
      },
    },
    {
      title: 'dated city search, 3 filters + max_price',
      args: () => ({
        market: city().slug,
        ...dates(),
        min_bedrooms: 1,
        air_conditioned: true,
        self_check_in: true,
        max_price: s.pick([150, 200, 250, 3500, 4500, 6000]),
      }),
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
      args: () => ({
        market: s.pick(markets).slug,
        start_date: addDays(ctx.today, s.int(1, 300)),
        end_date: 'indefinite',
        committed_nights: s.pick([180, 270, 365]),
      }),
    },
    {
      title: 'building search (dated city search, a page of 10 buildings)',
      buildings: true,
      args: () => ({ market: city().slug, ...dates(), sort_by: s.pick(['recommended', 'price_asc', 'rating_desc'] as const), page: 1, per_page: 10 }),
    },
    // Last, so that the shapes above draw the same samples as before it was added.
    { title: 'dated market search with facets (default sort)', args: () => ({ market: s.pick(markets).slug, ...dates(), facets: true }), floor: oneEdgeFloor },
    // Last, so the shapes above keep their questions; each from its own stream.
    {
      title: 'dated polygon search (20 vertices, city-sized, no market)',
      args: () => {
        const { market: _market, ...inside } = polygonQuestion(polygonAlone);
        return inside;
      },
    },
    {
      title: 'the same dated search by its market (no polygon)',
      args: () => {
        const { polygon: _polygon, ...byMarket } = polygonQuestion(polygonMarket);
        return byMarket;
      },
    },
    // Last, so the shapes above keep their questions; each from its own stream. A window of move-in dates beside
    // the dated search with one start: the same market and first move-in, a fixed stay of 90 nights.
    {
      title: 'dated market search, one start, 90 nights (default sort)',
      args: () => {
        const { market, start_date } = windowQuestion(oneStart);
        return { market, start_date, end_date: addDays(start_date, 90) };
      },
    },
    {
      title: 'window market search, 30-day window, 90 nights (default sort)',
      args: () => {
        const { market, start_date } = windowQuestion(window30);
        return { market, start_date, latest_start_date: addDays(start_date, 30), nights: 90 };
      },
    },
    {
      title: 'window market search, 14-day window, Flex tier',
      args: () => {
        const { market, start_date, tier } = windowQuestion(window14);
        return { market, start_date, latest_start_date: addDays(start_date, 14), end_date: 'indefinite', committed_nights: tier };
      },
    },
  ];
}

export async function searchBench(ctx: BenchContext, seconds: number): Promise<void> {
  const markets = await ctx.mongo.markets.find({}).toArray();
  ctx.say('## Apartment search (service via GET /api/public/search, and the same ES requests replayed straight to ES)');
  ctx.say('');
  const priced: string[] = [];
  ctx.say(TABLE_HEAD[0]);
  ctx.say(TABLE_HEAD[1]);
  const cpuTable = new CpuTable();
  const { es } = stackPids();
  // The floor of any search on this machine: a routed request that matches nothing, through the same client.
  const routing = markets[markets.length - 1].slug;
  for (const connections of [1, 16]) {
    const empty = await storeLoad(
      async () => {
        await ctx.es.search({ index: ctx.config.homesAlias, routing, request_cache: false, size: 0, query: { match_none: {} } });
      },
      connections,
      seconds,
    );
    ctx.say(row(`floor: a routed search that matches nothing, ES alone, c=${connections}`, empty));
  }
  /** Each measured shape's questions as the service is asked them, for the rows asked in turn. */
  const inTurn = new Map<string, () => Probe>();
  for (const shape of shapes(ctx, markets)) {
    const queries: Captured[] = [];
    for (let i = 0; i < QUERIES_PER_SHAPE; i++) queries.push(await capture(ctx, shape));
    const counts = queries.map((q) => q.priced).sort((a, b) => a - b);
    const reqs = queries.map((q) => q.requests.length).sort((a, b) => a - b);
    priced.push(
      `| ${shape.title} | ${(counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(1)} | ${percentile(counts, 50)} | ${percentile(counts, 99)} | ${counts[counts.length - 1]} | ${(reqs.reduce((a, b) => a + b, 0) / reqs.length).toFixed(2)} |`,
    );
    // BENCH_SHAPES=flex,building: measure only the shapes whose title holds one of the words (every shape is
    // still sampled, so the queries of a shape are the same whichever are measured).
    if (!measured(shape.title)) continue;
    const asked = (qs: Captured[]): (() => Probe) => {
      let n = 0;
      return () => {
        const q = qs[n++ % qs.length];
        return shape.buildings ? mcpProbe(q.args as BuildingArgs) : probe(q.args as ListArgs);
      };
    };
    inTurn.set(shape.title, asked(queries));
    let k = 0;
    const cpu: { service: CpuPerCall; alone: CpuPerCall } = { service: {}, alone: {} };
    // Each row is timed on a copy that has answered the shape before (JIT, kept stems and texts): the first
    // shape measured would otherwise pay the copy's warm-up in its c=1 row and the next would not.
    const warm = await ctx.service();
    let w = 0;
    await runLoad(
      warm.url,
      () => {
        const q = queries[w++ % queries.length];
        return shape.buildings ? mcpProbe(q.args as BuildingArgs) : probe(q.args as ListArgs);
      },
      { connections: 1, seconds: WARM_UP_SECONDS },
    );
    for (const connections of [1, 16]) {
      const service = await ctx.service();
      const viaService = await withCpuAt16(connections, { store: es, service: service.pid, bench: process.pid }, () =>
        runLoad(
          service.url,
          () => {
            const q = queries[k++ % queries.length];
            return shape.buildings ? mcpProbe(q.args as BuildingArgs) : probe(q.args as ListArgs);
          },
          { connections, seconds },
        ),
      );
      ctx.say(row(`${shape.title}, service, c=${connections}`, viaService.result));
      const alone = await withCpuAt16(connections, { store: es, bench: process.pid }, () => esReplay(ctx, queries, connections, seconds));
      ctx.say(row(`${shape.title}, ES alone, c=${connections}`, alone.result));
      if (connections === 16) Object.assign(cpu, { service: viaService.cpu, alone: alone.cpu });
    }
    // The floor: the same ES requests behind a bare Node server (floor-server.ts), at both concurrencies:
    // what any service in front of ES pays (one hop, one parse, one serialization), beside the service's rows.
    // It answers what ES found (for the building search, more than the cards the service answers).
    const floor = await ctx.floor();
    const proxied = (connections: number) =>
      runLoad(
        floor.url,
        () => {
          const q = queries[k++ % queries.length];
          return { method: 'POST', path: '/es', body: JSON.stringify(q.requests) };
        },
        { connections, seconds },
      );
    ctx.say(row(`${shape.title}, bare Node proxy, c=1`, await proxied(1)));
    const viaFloor = await withCpu({ store: es, floor: floor.pid, bench: process.pid }, () => proxied(16));
    ctx.say(row(`${shape.title}, bare Node proxy, c=16`, viaFloor.result));
    cpuTable.add(shape.title, 'Elasticsearch', cpu.alone, cpu.service, viaFloor.cpu);
    const shapeFloor = shape.floor;
    if (shapeFloor) {
      const runs: Array<{ run: () => Promise<void>; priced: number }> = [];
      for (const q of queries) runs.push(await shapeFloor.prepare(ctx, q));
      ctx.say(row(`${shape.title}, ${shapeFloor.title}, c=1`, await storeLoad(() => runs[k++ % runs.length].run(), 1, seconds)));
      const floorPriced = runs.map((r) => r.priced).sort((a, b) => a - b);
      priced.push(
        `| ${shape.title}: ${shapeFloor.title} | ${(floorPriced.reduce((a, b) => a + b, 0) / floorPriced.length).toFixed(1)} | ${percentile(floorPriced, 50)} | ${percentile(floorPriced, 99)} | ${floorPriced[floorPriced.length - 1]} | 1.00 |`,
      );
    }
  }
  ctx.say('');
  // The word search's target is a ratio at c=1: both shapes asked in turn, the ratio from one stretch of time.
  const worded = inTurn.get(WORDED_TITLE);
  const plain = inTurn.get(PLAIN_TITLE);
  if (worded && plain) {
    const [w, p] = await runInTurn((await ctx.service()).url, [worded, plain], 2 * seconds);
    ctx.say(
      `Asked in turn at c=1 (${w.requests} + ${p.requests} answers): with q p50 ${fmt(w.p50)} ms, without ${fmt(p.p50)} ms: ` +
        `**${(w.p50 / p.p50).toFixed(2)} ×** (target ≤ 1.3 ×); 5xx/errors ${(w.statuses['5xx'] ?? 0) + (w.statuses.error ?? 0) + (p.statuses['5xx'] ?? 0) + (p.statuses.error ?? 0)}`,
    );
    ctx.say('');
  }
  cpuTable.writeTo((line) => ctx.say(line));
  ctx.say(`Homes that reached the stay engine per query (${QUERIES_PER_SHAPE} sampled queries per shape, first page of 25, or of 10 buildings):`);
  ctx.say('');
  ctx.say('| shape | mean | p50 | p99 | max | ES round trips per query |');
  ctx.say('|---|---|---|---|---|---|');
  for (const line of priced) ctx.say(line);
  ctx.say('');
}
