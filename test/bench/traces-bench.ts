/**
 * What traces cost a call: copies of the service in three settings, tracing off (no OTLP endpoint: the
 * SDK is not loaded), on with 10 % of traces sampled and on with every trace, the last two exporting
 * OTLP/HTTP (protobuf, the SDK's default) to a receiver in this process that reads and drops what it
 * gets. Processor time per call at concurrency 16, for a tool call that reads MongoDB (the apartment
 * read) and a dated market search tool call (Elasticsearch, MongoDB and pricing).
 *
 * A copy carries a bias of its own of about ±10 % (where its code and heap landed), more than the
 * target's 5 %: one copy per setting measures its copy, not its setting. So each setting runs in
 * several fresh copies (three by default; BENCH_TRACE_COPIES), started in turn (off, 10 %, every, off,
 * …); each copy is warmed, then rounds (three by default; BENCH_TRACE_ROUNDS) measure every copy once,
 * interleaved by setting, the order reversed every other round so none is always measured first. A
 * copy's figure is its processor time over its calls, all rounds together; a setting's is the median of
 * its copies' figures, and its cost is that over the off setting's. The spread of each setting's copies
 * (lowest and highest, over the off setting's median) is reported beside it: it says what one copy
 * could not tell apart. The stores' processor time (Elasticsearch and the Mongo-wire server, their
 * /proc like the service's) is read in every row of every setting alike and reported apart: the
 * target is the service's own processor time.
 */
import { createServer } from 'node:http';
import { runLoad, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { clockTicks, cpuTicks, stackPids } from './cpu';

let rpc = 0;
const toolCall = (name: string, args: Record<string, unknown>): Probe => ({
  method: 'POST',
  path: '/mcp/public',
  body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args } }),
});

const ROUNDS = Math.max(1, Number(process.env.BENCH_TRACE_ROUNDS) || 3);
const COPIES = Math.max(1, Number(process.env.BENCH_TRACE_COPIES) || 3);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** A receiver of OTLP/HTTP exports that reads each body and answers 200; counts the bytes it got. */
async function receiver(): Promise<{ url: string; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Open until the bench exits: the copies export their last spans when the bench closes them, after this section.
  server.unref();
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, bytes: () => bytes };
}

interface Setting {
  title: string;
  env: Record<string, string>;
}

interface Copy {
  setting: Setting;
  index: number;
  svc: { url: string; pid: number };
}

/** What one copy spent under one call, all rounds together: clock ticks and calls. */
interface Tally {
  service: number;
  stores: number;
  calls: number;
  rps: number[];
  bad: number;
}

/** The processor ticks of each pid, summed (a pid not read counts nothing; the stores' are read alike in every row). */
const ticksOf = (pids: number[]): number => pids.reduce((sum, pid) => sum + (cpuTicks(pid) ?? 0), 0);

export async function tracesBench(ctx: BenchContext, seconds: number): Promise<void> {
  const { say, sample } = ctx;
  const sink = await receiver();
  const exporting = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'catalog-bench' };
  const settings: Setting[] = [
    { title: 'tracing off', env: {} },
    { title: 'on, 10 % sampled', env: { ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } },
    { title: 'on, every trace', env: { ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_always_on' } },
  ];
  const [off] = settings;
  // Started in turn by setting, so no setting's copies are all the first or the last started.
  const copies: Copy[] = [];
  for (let index = 0; index < COPIES; index++) {
    for (const setting of settings) copies.push({ setting, index, svc: await ctx.serviceWith(setting.env) });
  }
  const shapes: Array<{ title: string; probe: () => Probe }> = [
    { title: 'tools/call apartment read', probe: () => toolCall('get_apartment_tool', { slug: sample.slugOrUnknown() }) },
    {
      title: 'tools/call dated market search',
      probe: () => {
        const stay = sample.stay();
        return toolCall('search_apartments_tool', { market: sample.marketSlug(), start_date: stay.start, end_date: stay.end });
      },
    },
  ];
  const { es, mongo } = stackPids();
  const stores = [es, mongo].filter((p): p is number => typeof p === 'number');
  // Each copy warmed first (its code compiled, its caches filled): the first seconds of a fresh process are no round.
  for (const shape of shapes) for (const copy of copies) await runLoad(copy.svc.url, shape.probe, { connections: 16, seconds: Math.max(3, seconds / 2) });
  const tallies = new Map<string, Tally>();
  const tally = (shape: string, copy: Copy): Tally => {
    const key = `${shape}|${copy.setting.title}|${copy.index}`;
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { service: 0, stores: 0, calls: 0, rps: [], bad: 0 }));
    return t;
  };
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? copies : [...copies].reverse();
    for (const shape of shapes) {
      for (const copy of order) {
        const service0 = cpuTicks(copy.svc.pid) ?? NaN;
        const stores0 = ticksOf(stores);
        const result = await runLoad(copy.svc.url, shape.probe, { connections: 16, seconds });
        const t = tally(shape.title, copy);
        t.service += (cpuTicks(copy.svc.pid) ?? NaN) - service0;
        t.stores += ticksOf(stores) - stores0;
        t.calls += result.requests;
        t.rps.push(result.rps);
        t.bad += (result.statuses['5xx'] ?? 0) + (result.statuses.error ?? 0);
      }
    }
  }
  const minutes = (Date.now() - started) / 60_000;
  const msPerCall = (ticks: number, calls: number): number => ((ticks / clockTicks()) * 1_000) / calls;
  const pct = (r: number): string => `${r >= 1 ? '' : '−'}${Math.abs((r - 1) * 100).toFixed(1)} %`;

  say('## Traces (processor time per call, tracing off and on)');
  say('');
  say(
    `${COPIES} fresh copies per setting, ${ROUNDS} rounds of ${seconds} s rows at c=16 (${minutes.toFixed(1)} min of rows); ` +
      `a copy's figure is its processor time over its calls, a setting's the median of its copies'.`,
  );
  say('');
  say(
    "| call, c=16 | setting | service CPU ms/call, each copy | median | more than off | copies over off's median | stores CPU ms/call (median) | req/s (median) | 5xx/errors |",
  );
  say('|---|---|---|---|---|---|---|---|---|');
  for (const shape of shapes) {
    const figures = new Map<string, { service: number[]; stores: number[]; rps: number[]; bad: number }>();
    for (const setting of settings) {
      const mine = copies.filter((c) => c.setting === setting).map((c) => tally(shape.title, c));
      figures.set(setting.title, {
        service: mine.map((t) => msPerCall(t.service, t.calls)),
        stores: mine.map((t) => msPerCall(t.stores, t.calls)),
        rps: mine.flatMap((t) => t.rps),
        bad: mine.reduce((n, t) => n + t.bad, 0),
      });
    }
    const offMedian = median(figures.get(off.title)!.service);
    for (const setting of settings) {
      const f = figures.get(setting.title)!;
      const m = median(f.service);
      const spread = `${pct(Math.min(...f.service) / offMedian)} to ${pct(Math.max(...f.service) / offMedian)}`;
      say(
        `| ${shape.title} | ${setting.title} | ${f.service.map((v) => v.toFixed(3)).join(', ')} | ${m.toFixed(3)} | ` +
          `${setting === off ? '' : pct(m / offMedian)} | ${spread} | ${median(f.stores).toFixed(3)} | ${Math.round(median(f.rps))} | ${f.bad} |`,
      );
    }
  }
  say('');
  say(`The receiver got ${(sink.bytes() / 2 ** 20).toFixed(1)} MiB of OTLP.`);
  say('');
  say("Target: tracing on with 10 % sampled costs at most 5 % more of the service's processor time per call than tracing off.");
  say('');
}
