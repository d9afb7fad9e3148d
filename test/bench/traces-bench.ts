/**
 * What traces cost a call: one copy of the service whose tracing the bench switches as it runs
 * (./tracing-switch.ts), in four settings: off, off again (a control: its difference from off is the
 * bench's noise by construction), on with 10 % of traces sampled (`parentbased_traceidratio` 0.1) and on
 * with every trace (each request carrying a sampled `traceparent`, which the parent-based sampler
 * follows), exporting OTLP/HTTP (protobuf, the SDK's default) to a receiver in this process that reads
 * and drops what it gets. Processor time per call for a tool call that reads MongoDB (the apartment read)
 * and a dated market search tool call (Elasticsearch, MongoDB and pricing).
 *
 * One copy, switched, rather than a copy per setting: separate copies of the same build, started and
 * warmed alike, differ by up to 16 % in processor time per call (their code's and heap's layout), more
 * than the target, and that difference would be read as tracing's. The copy starts with an OTLP endpoint
 * (the SDK loaded and registered, the request span's middleware mounted, the request histogram with
 * exemplars); switched off, every helper takes the path of a copy started without an endpoint (one
 * boolean test). It runs on the machine's last processor (`taskset`; the stores and this process on the
 * others, each put back as it was at the end), is warmed under every setting in turn, then measured in
 * rounds: in each round every setting once (16 connections, one row of `seconds`), each round's order the
 * last one's turned by one. Before a row: the setting switched, one second of load not counted, the spans
 * held exported; after it, the spans it made exported (counted with its calls). A setting's cost in a
 * round is its row's processor time per call over the off row's of the same round; its figure is the
 * median over the rounds, their range beside it. The stores' processor time (Elasticsearch and the
 * Mongo-wire server, from their /proc like the copy's) is read around every row and reported apart: the
 * target is the service's own processor time.
 *
 * Beside them, the floor of tracing: the bench's bare Node server (floor-server.ts) measured the same way,
 * answering the apartment read's lookups, and the dated market search's Elasticsearch requests (captured
 * in-process for 200 questions of the same kind), as a tool result. Traced, it runs the SDK the service
 * runs and makes one server span per request and a client span per store call under a sampled trace,
 * nothing else: what any implementation in front of these stores pays for OpenTelemetry on this machine,
 * per call and as a share of its own time.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { runLoad, type Probe } from './load';
import type { BenchContext } from './store-bench';
import type { SwitchedProcess } from './service-process';
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

/** Rounds per call: each setting measured once in each (eight: each setting twice in each place of a round). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_TRACE_ROUNDS) || 8);
/** Load per call before the first round, the setting switched every WARM_ROW_SECONDS (every path warmed alike). */
const WARM_SECONDS = Math.max(1, Number(process.env.BENCH_TRACE_WARM_SECONDS) || 60);
const WARM_ROW_SECONDS = 5;
/** Load after a switch, before the row's processor time is read (the first calls of a setting are not counted). */
const SWITCH_SECONDS = 1;
/** Connections, as the target's c=16. */
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
  /** Whether the copy's tracing is on. */
  tracing: boolean;
  /** Whether each request carries a sampled `traceparent` (every trace sampled, by the parent-based sampler). */
  sampledParent?: boolean;
}

const SETTINGS: readonly Setting[] = [
  { title: 'tracing off', tracing: false },
  { title: 'off again (control)', tracing: false },
  { title: 'on, 10 % sampled', tracing: true },
  { title: 'on, every trace', tracing: true, sampledParent: true },
];
const OFF = 0;

/** A W3C `traceparent` of a sampled trace, new ids each time (a client that samples every trace). */
const sampledParent = (): string => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;

interface Shape {
  title: string;
  probe: () => Probe;
}

/** One row: the copy's and the stores' processor ticks over it, its calls. */
interface Row {
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
  const copyEnv = {
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_SERVICE_NAME: 'catalog-bench',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  };
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
  let replayed = 0;
  const floorShapes: Shape[] = [
    {
      title: "bare server: the apartment read's lookups as a tool result",
      probe: () => ({ method: 'POST', path: '/home?mcp', body: JSON.stringify(sample.slugOrUnknown()) }),
    },
    {
      title: "bare server: the dated market search's Elasticsearch requests as a tool result",
      probe: () => ({ method: 'POST', path: '/es?mcp', body: JSON.stringify(searches[replayed++ % searches.length]) }),
    },
  ];
  const { es, mongo } = stackPids();
  const stores = [...new Set([...esNodePids(), es, mongo])].filter((p): p is number => typeof p === 'number');
  const started = Date.now();
  // The copy on a processor of its own, the stores and the load on the others (each put back as it was).
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
  let rows: Row[][][];
  let floorRows: Row[][][];
  try {
    rows = await measureCopy(await ctx.switched('service', copyEnv), shapes, stores, seconds, pinning);
    floorRows = await measureCopy(await ctx.switched('floor', copyEnv), floorShapes, stores, seconds, pinning);
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, stopped);
    unpin();
  }
  const minutes = (Date.now() - started) / 60_000;

  say('## Traces (processor time per call, tracing off and on)');
  say('');
  say(
    `One copy whose tracing is switched as it runs, ` +
      `${split ? `on processor ${split.copies} (the stores and the load on ${split.rest})` : 'unpinned (fewer than two processors, or no taskset)'}` +
      `${pinning.failed > 0 ? ` (${pinning.failed} processes could not be pinned)` : ''}, warmed ${WARM_SECONDS} s per call under each setting in turn, ` +
      `then ${ROUNDS} rounds per call at ${CONNECTIONS} connections, each setting one row of ${seconds} s in each round, each round's order the last ` +
      `one's turned by one; before a row the setting switched, ${SWITCH_SECONDS} s of load not counted and the spans held exported, after it the ` +
      `row's spans exported and counted. A setting's cost in a round is its row's processor time per call over the off row's; its figure the ` +
      `median over the rounds, their range beside it. Then the bench's bare server (floor-server.ts) the same way: the floor. ` +
      `${minutes.toFixed(1)} min in all.`,
  );
  say('');
  say(
    '| call | setting | service CPU ms/call, all rows | more than off: median of the rounds | range of the rounds | more than off, ms/call (median) | stores CPU ms/call | req/s (median) | 5xx/errors |',
  );
  say('|---|---|---|---|---|---|---|---|---|');
  for (const [list, all] of [
    [shapes, rows],
    [floorShapes, floorRows],
  ] as const) {
    for (const [s, shape] of list.entries()) {
      // all[s][round][setting]
      const perCall = (row: Row): number => msPerCall(row.service, row.calls);
      SETTINGS.forEach((setting, i) => {
        const mine = all[s].map((round) => round[i]);
        const sum = (key: 'service' | 'stores' | 'calls' | 'bad'): number => mine.reduce((n, r) => n + r[key], 0);
        const ratios = all[s].map((round) => perCall(round[i]) / perCall(round[OFF]));
        const extra = all[s].map((round) => perCall(round[i]) - perCall(round[OFF]));
        const isOff = i === OFF;
        say(
          `| ${shape.title} | ${setting.title} | ${msPerCall(sum('service'), sum('calls')).toFixed(3)} | ` +
            `${isOff ? '' : `**${pct(median(ratios))}**`} | ${isOff ? '' : `${pct(Math.min(...ratios))} … ${pct(Math.max(...ratios))}`} | ` +
            `${isOff ? '' : ms(median(extra))} | ${msPerCall(sum('stores'), sum('calls')).toFixed(3)} | ` +
            `${Math.round(median(mine.map((r) => r.rps)))} | ${sum('bad')} |`,
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

/** `probe` as the setting sends it: with a sampled `traceparent` under "every trace". */
function sentAs(setting: Setting, probe: () => Probe): () => Probe {
  if (!setting.sampledParent) return probe;
  return () => {
    const p = probe();
    return { ...p, headers: { ...p.headers, traceparent: sampledParent() } };
  };
}

/**
 * One switched copy: pinned, warmed under each setting in turn, then measured per call in ROUNDS rounds
 * (each setting one row per round, each round's order the last one's turned by one), then closed.
 * Returns rows[shape][round][setting].
 */
async function measureCopy(copy: SwitchedProcess, shapes: readonly Shape[], stores: number[], seconds: number, pinning: Pinning): Promise<Row[][][]> {
  try {
    if (pinning.cpus !== null && !pin(copy.pid, pinning.cpus)) pinning.failed += 1;
    const rows: Row[][][] = shapes.map(() => []);
    for (const [s, shape] of shapes.entries()) {
      for (let k = 0; k * WARM_ROW_SECONDS < WARM_SECONDS; k++) {
        const setting = SETTINGS[k % SETTINGS.length];
        await copy.ask({ tracing: setting.tracing });
        await runLoad(copy.url, sentAs(setting, shape.probe), { connections: CONNECTIONS, seconds: WARM_ROW_SECONDS });
      }
      for (let round = 0; round < ROUNDS; round++) {
        const measured: Row[] = SETTINGS.map(() => ({ service: 0, stores: 0, calls: 0, rps: 0, bad: 0 }));
        for (let k = 0; k < SETTINGS.length; k++) {
          const i = (k + round) % SETTINGS.length;
          const probe = sentAs(SETTINGS[i], shape.probe);
          await copy.ask({ tracing: SETTINGS[i].tracing });
          await runLoad(copy.url, probe, { connections: CONNECTIONS, seconds: SWITCH_SECONDS });
          await copy.ask({ flush: true });
          const service0 = ticksNow(copy.pid);
          const stores0 = ticksOf(stores);
          const result = await runLoad(copy.url, probe, { connections: CONNECTIONS, seconds });
          await copy.ask({ flush: true });
          measured[i] = {
            service: ticksNow(copy.pid) - service0,
            stores: ticksOf(stores) - stores0,
            calls: result.requests,
            rps: result.rps,
            bad: (result.statuses['5xx'] ?? 0) + (result.statuses.error ?? 0),
          };
        }
        rows[s].push(measured);
      }
    }
    return rows;
  } finally {
    await copy.close();
  }
}

const msPerCall = (ticks: number, calls: number): number => ((ticks / clockTicks()) * 1_000) / calls;
const ms = (v: number): string => `${v >= 0 ? '' : '−'}${Math.abs(v).toFixed(3)}`;
const pct = (r: number): string => `${r >= 1 ? '' : '−'}${Math.abs((r - 1) * 100).toFixed(1)} %`;

/**
 * The processors the copy runs on, and those the stores and the bench run on, when the machine has two or
 * more and `taskset` is there: the copy gets the last processor to itself. Null otherwise (unpinned).
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

/** Where the copy runs (null: unpinned), and how many processes could not be pinned. */
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

/** A processor tick count that must be read (a copy whose time cannot be read stops the bench: no figure is made up). */
function ticksNow(pid: number): number {
  const ticks = cpuTicks(pid);
  if (ticks === null) throw new Error(`the processor time of process ${pid} could not be read`);
  return ticks;
}
