/**
 * What traces cost a call: copies of the service in three settings, tracing off (no OTLP endpoint: the
 * SDK is not loaded), on with 10 % of traces sampled and on with every trace, the last two exporting
 * OTLP/HTTP (protobuf, the SDK's default) to a receiver in this process that reads and drops what it
 * gets. Processor time per call at concurrency 16, for a tool call that reads MongoDB (the apartment
 * read) and a dated market search tool call (Elasticsearch, MongoDB and pricing).
 *
 * A copy carries a bias of its own of about ±10 % (where its code and heap landed, how warm the stores
 * were when it was measured), more than the target's 5 %: one copy per setting measures its copy, not
 * its setting. So each setting runs in several fresh copies (three by default; BENCH_TRACE_COPIES),
 * each turn of starts rotating the settings' order (no setting always starts, or is measured, first);
 * each copy is warmed for 12 s of load per call in two turns (BENCH_TRACE_WARM_SECONDS: a fresh copy's
 * processor time per call falls by half over its first 30 s of load, and the stores warm with the first
 * copies), then rounds (two by default; BENCH_TRACE_ROUNDS) measure every copy once, the order reversed
 * every other round. A copy's figure is its processor time over its calls, all rounds together; a
 * setting's is the median of its copies' figures, and its cost is that over the off setting's. A
 * control setting, tracing off again in copies of its own, says what the bench cannot tell apart: its
 * difference from the off setting is noise by construction. The spread of each setting's copies
 * (lowest and highest, over the off setting's median) is reported beside it. The stores' processor
 * time (Elasticsearch and the Mongo-wire server, their /proc like the service's) is read in every row
 * of every setting alike and reported apart: the target is the service's own processor time.
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

const ROUNDS = Math.max(1, Number(process.env.BENCH_TRACE_ROUNDS) || 2);
const COPIES = Math.max(1, Number(process.env.BENCH_TRACE_COPIES) || 3);
/**
 * Load per call before a copy's first row: a fresh copy's processor time per call falls over its first
 * 20-30 s of load (3.1-3.4 ms in its first 4 s, 2.2 in the next, 1.6-1.9 after 30 s).
 */
const WARM_SECONDS = Math.max(1, Number(process.env.BENCH_TRACE_WARM_SECONDS) || 12);
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
    { title: 'off again (control)', env: {} },
    { title: 'on, 10 % sampled', env: { ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } },
    { title: 'on, every trace', env: { ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_always_on' } },
  ];
  const [off] = settings;
  // Each turn of starts rotates the settings' order: no setting's copies are all the first or the last started (or measured).
  const copies: Copy[] = [];
  for (let index = 0; index < COPIES; index++) {
    for (let k = 0; k < settings.length; k++) {
      const setting = settings[(k + index) % settings.length];
      copies.push({ setting, index, svc: await ctx.serviceWith(setting.env) });
    }
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
  // Each copy warmed first (its code compiled, its caches filled), every shape in turn: the first half minute of a
  // fresh process's load is no round. The stores warm with the first copies; every copy gets one more warming turn
  // after all of them had one, so the first copies' figures are not their stores' warm-up.
  for (let turn = 0; turn < 2; turn++) {
    for (const copy of copies) for (const shape of shapes) await runLoad(copy.svc.url, shape.probe, { connections: 16, seconds: WARM_SECONDS / 2 });
  }
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
