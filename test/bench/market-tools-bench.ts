/**
 * The market tools and the availability overview: each through the service and,
 * beside it, the Elasticsearch request(s) that call sends, straight to Elasticsearch, at
 * concurrency 1 and 16. Markets, cities and slugs are sampled over the whole inventory.
 */
import type { estypes } from '@elastic/elasticsearch';
import { buildMarketFiltersBody } from '../../services/search/markets/market-filters';
import { buildMarketInfoBody } from '../../services/search/markets/market-info';
import { buildOverviewBody } from '../../services/search/overview/overview-query';
import type { MarketRecord } from '../../services/kernel/inventory/records';
import { homeRouting, readRoutingKeys, type RoutingKeys } from '../../services/kernel/store/home-routing';

/** A market's body as the service sends it: routed to the market's shard. */
const routed = <B extends object>(keys: RoutingKeys, market: string, build: (slug: string) => B): B & { routing: string } => ({
  ...build(market),
  routing: homeRouting(market, keys),
});
import { measured, runLoad, row, storeLoad, TABLE_HEAD, type LoadResult, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { CpuTable, stackPids, withCpu, withCpuAt16, type CpuPerCall } from './cpu';

let rpc = 0;
const mcp = (name: string, args: Record<string, unknown>): Probe => ({
  method: 'POST',
  path: '/mcp/public',
  body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args } }),
});

/** Closed-loop load straight against Elasticsearch with the same request bodies. */
async function esLoad(ctx: BenchContext, body: () => estypes.SearchRequest, connections: number, seconds: number): Promise<LoadResult> {
  return storeLoad(
    async () => {
      await ctx.es.search({ index: ctx.config.homesAlias, ...body() });
    },
    connections,
    seconds,
  );
}

export async function marketToolsBench(ctx: BenchContext, seconds: number): Promise<void> {
  const markets = new Map((await ctx.mongo.markets.find({}).toArray()).map((m) => [m.slug, m] as [string, MarketRecord]));
  const keys = await readRoutingKeys(ctx.es, ctx.config.homesAlias);
  const cityMarket = new Map([...markets.values()].flatMap((m) => m.cities.map((c) => [c.slug, m] as [string, MarketRecord])));
  const overviewPick = (): [string, number] => [ctx.sample.citySlug(), ctx.sample.int(1, 3)];
  /** What compare reads (services/homes/repository.ts findHomes): homes by unique slug, then their buildings by _id. */
  const compareReads = async (): Promise<void> => {
    const slugs = [ctx.sample.slug(), ctx.sample.slug(), ctx.sample.slug()];
    const homes = await ctx.mongo.homes.find({ slug: { $in: slugs } }).toArray();
    await ctx.mongo.properties.find({ _id: { $in: [...new Set(homes.map((h) => h.property_id))] } }).toArray();
  };
  const shapes: Array<{
    title: string;
    service: () => Probe;
    es?: () => estypes.SearchRequest;
    store?: () => Promise<void>;
    floor?: { probe: () => Probe; label: string };
  }> = [
    {
      // The same city and page through the service and straight to ES (the tool's default sort).
      title: 'availability overview of a city, a page of 50',
      service: () => {
        const [city, page] = overviewPick();
        return mcp('availability_overview_tool', { market: city, page });
      },
      es: () => {
        const [city, page] = overviewPick();
        const m = cityMarket.get(city)!;
        const body = buildOverviewBody({
          location: { market: m, city: m.cities.find((c) => c.slug === city)! },
          filters: {},
          sort: 'availability',
          page,
          perPage: 50,
        });
        // Routed to the market's shard, as the service sends it.
        return { ...body, routing: homeRouting(m.slug, keys) };
      },
      floor: { probe: () => ({ method: 'POST', path: '/es?mcp', body: JSON.stringify([[shapes[0].es!()]]) }), label: 'bare Node proxy (tool-server answer)' },
    },
    {
      title: 'market filters',
      service: () => ({ path: `/api/public/market-filters?market=${ctx.sample.pick([ctx.sample.marketSlug(), ctx.sample.citySlug()])}` }),
      es: () => routed(keys, ctx.sample.marketSlug(), buildMarketFiltersBody),
    },
    {
      title: 'market info',
      service: () => ({ path: `/api/public/market-info?market=${ctx.sample.marketSlug()}` }),
      es: () => routed(keys, ctx.sample.marketSlug(), buildMarketInfoBody),
    },
    {
      // Compare reads MongoDB only (unique slug, then _id): its "store alone" row sends those reads.
      title: 'compare 3 apartments (MongoDB only)',
      service: () => mcp('compare_apartments_tool', { home_slugs: [ctx.sample.slug(), ctx.sample.slug(), ctx.sample.slug()] }),
      store: compareReads,
      floor: {
        probe: () => ({ method: 'POST', path: '/compare', body: JSON.stringify([ctx.sample.slug(), ctx.sample.slug(), ctx.sample.slug()]) }),
        label: 'bare Node proxy',
      },
    },
  ];
  ctx.say('## Market tools and the availability overview (service, and the same ES requests sent straight to ES)');
  ctx.say('');
  ctx.say(TABLE_HEAD[0]);
  ctx.say(TABLE_HEAD[1]);
  const { es, mongo } = stackPids();
  const cpuTable = new CpuTable();
  for (const shape of shapes) {
    if (!measured(shape.title)) continue;
    const store = shape.es ? es : mongo;
    const cpu: { service: CpuPerCall; alone: CpuPerCall } = { service: {}, alone: {} };
    for (const connections of [1, 16]) {
      const service = await ctx.service();
      const viaService = await withCpuAt16(connections, { store, service: service.pid, bench: process.pid }, () =>
        runLoad(service.url, shape.service, { connections, seconds }),
      );
      ctx.say(row(`${shape.title}, service, c=${connections}`, viaService.result));
      const { es: body, store: reads } = shape;
      const alone = await withCpuAt16(connections, { store, bench: process.pid }, () =>
        body ? esLoad(ctx, body, connections, seconds) : storeLoad(reads ?? (async () => undefined), connections, seconds),
      );
      ctx.say(row(`${shape.title}, ${shape.es ? 'ES' : 'MongoDB'} alone, c=${connections}`, alone.result));
      if (connections === 16) Object.assign(cpu, { service: viaService.cpu, alone: alone.cpu });
    }
    // The floor: the same store calls behind a bare Node server (floor-server.ts), at the target's concurrency;
    // `/es?mcp` answers as a tool server does (the answer twice: text and structuredContent).
    let viaFloor: Awaited<ReturnType<typeof withCpu>> | undefined;
    if (shape.floor) {
      const floor = await ctx.floor();
      const probe = shape.floor.probe;
      viaFloor = await withCpu({ store, floor: floor.pid, bench: process.pid }, () => runLoad(floor.url, probe, { connections: 16, seconds }));
      ctx.say(row(`${shape.title}, ${shape.floor.label}, c=16`, viaFloor.result));
    }
    cpuTable.add(shape.title, shape.es ? 'Elasticsearch' : 'MongoDB', cpu.alone, cpu.service, viaFloor?.cpu);
  }
  ctx.say('');
  cpuTable.writeTo((line) => ctx.say(line));
}
