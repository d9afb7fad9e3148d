/**
 * What traces cost a call: copies of the service in four settings, tracing off (no OTLP endpoint: the SDK
 * is not loaded), off again (a control: its difference from off is the bench's noise by construction), on
 * with 10 % of traces sampled and on with every trace, the last two exporting OTLP/HTTP (protobuf, the
 * SDK's default) to a receiver in this process that reads and drops what it gets. Processor time per call
 * for a tool call that reads MongoDB (the apartment read) and a dated market search tool call
 * (Elasticsearch, MongoDB and pricing).
 *
 * Copies compared with one history, on a processor of their own. A fresh copy's processor time per call
 * falls by half over its first 30 s of load, and a copy warmed minutes before it is measured stays up to a
 * third dearer than one warmed just before; sharing both processors with Elasticsearch, the Mongo-wire
 * server and the load, two copies of the same setting measured at once differed by up to 15 %, more than
 * the target. So the bench runs groups: each group starts one fresh copy per setting (the start order
 * rotating from group to group) and puts them on the machine's last processor (`taskset`; the stores and
 * this process on the others, each put back as it was at the end), warms them all at once, then measures
 * them one at a time (16 connections), row by row, each row's order the last one's turned by one (in four
 * rows each copy is once first, second, third and last), then stops them. A copy's processor time for a
 * call runs from before its first row to a few seconds after the last (the spans still held are
 * exported and counted). A setting's cost in a group is its copy's processor time per call over the off
 * copy's of the same group; its figure is the median over the groups (BENCH_TRACE_GROUPS, three by
 * default), each group's shown beside it. The stores' processor time (Elasticsearch and the Mongo-wire
 * server, from their /proc like the service's) is read around every row and reported apart: the target is
 * the service's own processor time.
 *
 * Beside them, the floor of tracing: a group of the bench's bare Node server (floor-server.ts) in the same
 * four settings, run the same way after each of the service's first groups (BENCH_TRACE_FLOOR_GROUPS, one
 * by default), answering the apartment read's lookups, and the dated market search's Elasticsearch
 * requests (captured in-process for 200 questions of the same kind), as a tool result. Traced, it starts
 * the SDK the service starts and makes one server span per request and a client span per store call under
 * a sampled trace, nothing else: what any implementation in front of these stores pays for OpenTelemetry
 * on this machine, per call and as a share of its own time.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { runLoad, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { clockTicks, cpuTicks, esNodePids, stackPids } from './cpu';
import { answerSearch } from '../../services/tools/search-common';
import { SEARCH_PAGE } from '../../services/kernel/limits/pages';
import type { RoundTrip } from '../../services/search/shared/search-transport';

/** Dated market searches whose Elasticsearch requests the search's floor replays. */
const SEARCH_QUESTIONS = 200;

let rpc = 0;
const toolCall = (name: string, args: Record<string, unknown>): Probe => ({
  method: 'POST',
  path: '/mcp/public',
  body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args } }),
});

const GROUPS = Math.max(1, Number(process.env.BENCH_TRACE_GROUPS) || 3);
/** Groups of the floor, after the service's first ones (the figures' context, not their target). */
const FLOOR_GROUPS = Math.min(GROUPS, Math.max(1, Number(process.env.BENCH_TRACE_FLOOR_GROUPS) || 1));
/** Rows per copy, call and group, each `seconds` long (four: each copy once in each place of a row). */
const ROWS = Math.max(1, Number(process.env.BENCH_TRACE_ROWS) || 4);
/**
 * Load per call before a group's first row, all its copies at once on their processor: a fresh copy's
 * processor time per call falls over its first 20-30 s of load at full speed, and each of the four copies
 * gets about a quarter of the processor, so 120 s gives each about 30 s at full speed.
 */
const WARM_SECONDS = Math.max(1, Number(process.env.BENCH_TRACE_WARM_SECONDS) || 120);
/** Connections, as the target's c=16 (while warming, per copy: 64 in all). */
const CONNECTIONS = 16;
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

/** What one copy spent under one call, all its rows together: clock ticks and calls. */
interface Tally {
  service: number;
  stores: number;
  calls: number;
  rps: number;
  bad: number;
}

/** The processor ticks of each pid, summed (a pid not read counts nothing; the stores' are read alike in every row). */
const ticksOf = (pids: number[]): number => pids.reduce((sum, pid) => sum + (cpuTicks(pid) ?? 0), 0);

export async function tracesBench(ctx: BenchContext, seconds: number): Promise<void> {
  const { say, sample } = ctx;
  const sink = await receiver();
  const exporting = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'catalog-bench' };
  // Off whatever the bench's own environment says.
  const noEndpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
  const settings: Setting[] = [
    { title: 'tracing off', env: noEndpoint },
    { title: 'off again (control)', env: noEndpoint },
    { title: 'on, 10 % sampled', env: { ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } },
    { title: 'on, every trace', env: { ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_always_on' } },
  ];
  const [off] = settings;
  const shapes: Shape[] = [
    { title: 'tools/call apartment read', probe: () => toolCall('get_apartment_tool', { slug: sample.slugOrUnknown() }) },
    {
      title: 'tools/call dated market search',
      probe: () => {
        const stay = sample.stay();
        return toolCall('search_apartments_tool', { market: sample.marketSlug(), start_date: stay.start, end_date: stay.end });
      },
    },
  ];
  // The search's floor sends the Elasticsearch requests the service sent for the same questions, captured in-process.
  const searches: RoundTrip[][] = [];
  for (let i = 0; i < SEARCH_QUESTIONS; i++) {
    const stay = sample.stay();
    const trips: RoundTrip[] = [];
    const args = { market: sample.marketSlug(), start_date: stay.start, end_date: stay.end };
    await answerSearch(ctx.deps, args, ctx.today, 0, SEARCH_PAGE.default, (trip) => trips.push(trip));
    searches.push(trips);
  }
  let asked = 0;
  const floorShapes: Shape[] = [
    {
      title: "bare server: the apartment read's lookups as a tool result",
      probe: () => ({ method: 'POST', path: '/home?mcp', body: JSON.stringify(sample.slugOrUnknown()) }),
    },
    {
      title: "bare server: the dated market search's Elasticsearch requests as a tool result",
      probe: () => ({ method: 'POST', path: '/es?mcp', body: JSON.stringify(searches[asked++ % searches.length]) }),
    },
  ];
  const { es, mongo } = stackPids();
  const stores = [...new Set([...esNodePids(), es, mongo])].filter((p): p is number => typeof p === 'number');
  /** tallies[shape][group][setting], the service's then the floor's. */
  const tallies = shapes.map(() => [] as Tally[][]);
  const floorTallies = floorShapes.map(() => [] as Tally[][]);
  const started = Date.now();
  // The copies on a processor of their own, the stores and the load on the others (each put back as it was).
  const split = processorSplit();
  const rest = split ? [...stores, process.pid] : [];
  const before = new Map(rest.map((pid) => [pid, allowedCpus(pid)]));
  const pinning: Pinning = { cpus: split?.copies ?? null, failed: 0 };
  const unpin = (): void => {
    for (const [pid, cpus] of before) if (cpus) pin(pid, cpus);
  };
  // A bench stopped by a signal (Ctrl-C) puts the stores back too: they outlive it, and pinned they would run on one processor.
  const stopped = (signal: NodeJS.Signals): void => {
    unpin();
    process.kill(process.pid, signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stopped);
  for (const pid of rest) if (!pin(pid, split!.rest)) pinning.failed += 1;
  try {
    for (let group = 0; group < GROUPS; group++) {
      await measureGroup(group, settings, (env) => ctx.serviceWith(env), shapes, tallies, stores, seconds, pinning);
      if (group < FLOOR_GROUPS) {
        await measureGroup(group, settings, (env) => ctx.floorWith(env), floorShapes, floorTallies, stores, seconds, pinning);
      }
    }
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, stopped);
    unpin();
  }
  const minutes = (Date.now() - started) / 60_000;

  say('## Traces (processor time per call, tracing off and on)');
  say('');
  say(
    `${GROUPS} groups of fresh copies, one per setting, ` +
      `${split ? `on processor ${split.copies} (the stores and the load on ${split.rest})` : 'unpinned (fewer than two processors, or no taskset)'}` +
      `${pinning.failed > 0 ? ` (${pinning.failed} processes could not be pinned)` : ''}, warmed ${WARM_SECONDS} s per call at once, then measured ` +
      `one at a time at ${CONNECTIONS} connections, ${ROWS} rows of ${seconds} s per copy and call, each row's order the last one's turned by one ` +
      `(${minutes.toFixed(1)} min in all); a copy's processor time is read from before its first row of a call to ${SETTLE_SECONDS} s after the ` +
      `last, and a setting's cost in a group is its copy's processor time per call over the off copy's, its figure the median over the groups. ` +
      `After each of the service's first ${FLOOR_GROUPS} group(s), a group of bare servers (floor-server.ts) in the same settings, run the same way: the floor.`,
  );
  say('');
  say(
    '| call | setting | service CPU ms/call, each group | more than off, each group | more than off (median) | more than off, ms/call (median) | stores CPU ms/call (median) | req/s (median) | 5xx/errors |',
  );
  say('|---|---|---|---|---|---|---|---|---|');
  for (const [list, all] of [
    [shapes, tallies],
    [floorShapes, floorTallies],
  ] as const) {
    for (const [s, shape] of list.entries()) {
      const offIndex = settings.indexOf(off);
      settings.forEach((setting, i) => {
        const mine = all[s].map((g) => g[i]);
        const perCall = mine.map((t) => msPerCall(t.service, t.calls));
        const offPerCall = all[s].map((g) => msPerCall(g[offIndex].service, g[offIndex].calls));
        const ratios = perCall.map((v, g) => v / offPerCall[g]);
        const extra = perCall.map((v, g) => v - offPerCall[g]);
        say(
          `| ${shape.title} | ${setting.title} | ${perCall.map((v) => v.toFixed(3)).join(', ')} | ` +
            `${setting === off ? '' : ratios.map(pct).join(', ')} | ${setting === off ? '' : `**${pct(median(ratios))}**`} | ` +
            `${setting === off ? '' : ms(median(extra))} | ` +
            `${median(mine.map((t) => msPerCall(t.stores, t.calls))).toFixed(3)} | ${Math.round(median(mine.map((t) => t.rps)))} | ${mine.reduce((n, t) => n + t.bad, 0)} |`,
        );
      });
    }
  }
  say('');
  say(`The receiver got ${(sink.bytes() / 2 ** 20).toFixed(1)} MiB of OTLP.`);
  say('');
  say("Target: tracing on with 10 % sampled costs at most 5 % more of the service's processor time per call than tracing off.");
  say('');
}

interface Shape {
  title: string;
  probe: () => Probe;
}

type Copy = { url: string; pid: number; close(): Promise<void> };

const msPerCall = (ticks: number, calls: number): number => ((ticks / clockTicks()) * 1_000) / calls;
const ms = (v: number): string => `${v >= 0 ? '' : '−'}${Math.abs(v).toFixed(3)}`;
const pct = (r: number): string => `${r >= 1 ? '' : '−'}${Math.abs((r - 1) * 100).toFixed(1)} %`;

/**
 * The processors the copies run on, and those the stores and the bench run on, when the machine has two or
 * more and `taskset` is there: the copies get the last processor to themselves. Null otherwise (unpinned).
 */
function processorSplit(): { copies: string; rest: string } | null {
  const n = availableParallelism();
  if (n < 2) return null;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return { copies: String(n - 1), rest: n === 2 ? '0' : `0-${n - 2}` };
}

/** Where the copies run (null: unpinned), and how many processes could not be pinned. */
interface Pinning {
  cpus: string | null;
  failed: number;
}

/** The processors `pid` may run on (`Cpus_allowed_list`), or undefined. */
function allowedCpus(pid: number): string | undefined {
  try {
    return /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/** Runs `pid` (every thread of it) on `cpus`; false when it cannot be pinned (gone, not allowed). */
function pin(pid: number, cpus: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * After a copy's last row of a call, how long the bench waits before it reads the copy's processor time: the
 * spans the batch processor still holds are exported (every 5 s by default) and counted with the copy's calls.
 */
const SETTLE_SECONDS = 6;

/** A processor tick count that must be read (a copy whose time cannot be read stops the bench: no figure is made up). */
function ticksNow(pid: number): number {
  const ticks = cpuTicks(pid);
  if (ticks === null) throw new Error(`the processor time of process ${pid} could not be read`);
  return ticks;
}

/**
 * One group: a fresh copy per setting (started by `start`, the start order rotating with `group`), put on
 * the processor of the copies, warmed together, then measured one at a time: per call, row by row, each
 * row's order the last one's turned by one (over four rows, each copy once in each place), then stopped.
 * A copy's processor time for a call is read from before its first row to SETTLE_SECONDS after the last
 * row (what it did between its rows, and its exports after them, included); its calls are its rows'.
 * What each spent is added to `tallies[shape][group]`.
 */
async function measureGroup(
  group: number,
  settings: readonly Setting[],
  start: (env: Record<string, string>) => Promise<Copy>,
  shapes: readonly Shape[],
  tallies: Tally[][][],
  stores: number[],
  seconds: number,
  pinning: Pinning,
): Promise<void> {
  // The start order rotates: no setting's copy is always the first or the last started.
  const copies: Array<Copy | undefined> = settings.map(() => undefined);
  for (let k = 0; k < settings.length; k++) {
    const i = (k + group) % settings.length;
    copies[i] = await start(settings[i].env);
  }
  const svcs = copies.map((c) => c!);
  try {
    if (pinning.cpus !== null) for (const svc of svcs) if (!pin(svc.pid, pinning.cpus)) pinning.failed += 1;
    // Warmed together: every copy of the group has the same history when its rows begin.
    for (const shape of shapes) {
      await Promise.all(svcs.map((svc) => runLoad(svc.url, shape.probe, { connections: CONNECTIONS, seconds: WARM_SECONDS })));
    }
    for (const perShape of tallies) perShape[group] = settings.map(() => ({ service: 0, stores: 0, calls: 0, rps: 0, bad: 0 }));
    for (const [s, shape] of shapes.entries()) {
      const service0 = svcs.map((svc) => ticksNow(svc.pid));
      for (let row = 0; row < ROWS; row++) {
        const order = svcs.map((_, k) => (k + row + group) % svcs.length);
        for (const i of order) {
          const stores0 = ticksOf(stores);
          const result = await runLoad(svcs[i].url, shape.probe, { connections: CONNECTIONS, seconds });
          const t = tallies[s][group][i];
          t.stores += ticksOf(stores) - stores0;
          t.calls += result.requests;
          t.rps += result.rps / ROWS;
          t.bad += (result.statuses['5xx'] ?? 0) + (result.statuses.error ?? 0);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
      svcs.forEach((svc, i) => (tallies[s][group][i].service += ticksNow(svc.pid) - service0[i]));
    }
  } finally {
    await Promise.all(svcs.map((svc) => svc.close()));
  }
}
