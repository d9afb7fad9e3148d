/**
 * The place box (GET /api/public/suggest): what a person types, through the service and, beside it,
 * the same completion request straight to Elasticsearch, at concurrency 1 and 16. The typed texts are
 * drawn over every place of the inventory (markets, display cities, neighbourhoods, and buildings
 * sampled over all of them, the last as often as the first): a prefix of 2-8 letters, one word and
 * the start of the next, a name with two letters swapped, and one in ten a text no place starts with.
 * Each through a copy that keeps answers per index generation (the default) and one that computes
 * every answer (SUGGEST_CACHE_MB=0). Targets: p50 ≤ 3 ms at c=1 through the service, ≥ 1,500 answers/s at c=16.
 */
import { suggestBody } from '../../services/search/places/place-suggest';
import { runLoad, row, storeLoad, TABLE_HEAD, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { CpuTable, stackPids, withCpuAt16, type CpuPerCall } from './cpu';

const TYPED_PER_RUN = 500;

export async function suggestBench(ctx: BenchContext, seconds: number): Promise<void> {
  const r = ctx.sample;
  const markets = await ctx.mongo.markets.find({}).toArray();
  const buildings = (await ctx.mongo.properties.find({}, { projection: { name: 1 } }).toArray()).map((p) => p.name);
  const names = [
    ...markets.map((m) => m.name),
    ...markets.flatMap((m) => m.cities.map((c) => c.name)),
    ...markets.flatMap((m) => m.neighborhoods.map((n) => n.name)),
  ];
  const typed: string[] = Array.from({ length: TYPED_PER_RUN }, () => {
    const name = r.int(0, 1) === 0 ? r.pick(names) : r.pick(buildings);
    switch (r.int(0, 9)) {
      case 0:
        return `zq${r.int(100, 999)}x`;
      case 1:
      case 2: {
        const [first, second] = name.split(' ');
        return second ? `${first} ${second.slice(0, 1)}` : name.slice(0, 4);
      }
      case 3:
        return name.length >= 6 ? name[0] + name[2] + name[1] + name.slice(3, 8) : name;
      default:
        return name.slice(0, r.int(2, 8));
    }
  });
  let i = 0;
  const next = (): string => typed[i++ % typed.length];
  ctx.say('## The place box (GET /api/public/suggest, and the same completion request straight to ES)');
  ctx.say('');
  ctx.say(
    `${typed.length} typed texts, asked in turn: a copy that keeps answers per index generation (the default) answers a text asked ` +
      'before from memory; the copy with SUGGEST_CACHE_MB=0 sends every one to the places index.',
  );
  ctx.say('');
  ctx.say(TABLE_HEAD[0]);
  ctx.say(TABLE_HEAD[1]);
  const { es } = stackPids();
  const cpu: { kept: CpuPerCall; computed: CpuPerCall; alone: CpuPerCall } = { kept: {}, computed: {}, alone: {} };
  const kept = await ctx.service();
  const computed = await ctx.serviceWith({ SUGGEST_CACHE_MB: '0' });
  for (const connections of [1, 16]) {
    const probe = (): Probe => ({ path: `/api/public/suggest?${new URLSearchParams({ q: next() })}` });
    for (const [title, service, into] of [
      ['answers kept', kept, 'kept'],
      ['every answer computed', computed, 'computed'],
    ] as const) {
      const before = i;
      const via = await withCpuAt16(connections, { store: es, service: service.pid, bench: process.pid }, () =>
        runLoad(service.url, probe, { connections, seconds }),
      );
      const asked = i - before;
      const repeats = into === 'kept' ? `, ${Math.round((100 * Math.max(0, asked - typed.length)) / Math.max(1, asked))} % asked before` : '';
      ctx.say(row(`suggest, service, ${title}${repeats}, c=${connections}`, via.result));
      if (connections === 16) cpu[into] = via.cpu;
    }
    const alone = await withCpuAt16(connections, { store: es, bench: process.pid }, () =>
      storeLoad(
        async () => {
          await ctx.es.search({ index: ctx.config.placesAlias, ...suggestBody(next(), 8) });
        },
        connections,
        seconds,
      ),
    );
    ctx.say(row(`suggest, ES alone, c=${connections}`, alone.result));
    if (connections === 16) cpu.alone = alone.cpu;
  }
  ctx.say('');
  const table = new CpuTable();
  table.add('suggest, answers kept', 'Elasticsearch', cpu.alone, cpu.kept);
  table.add('suggest, every answer computed', 'Elasticsearch', cpu.alone, cpu.computed);
  table.writeTo((line) => ctx.say(line));
}
