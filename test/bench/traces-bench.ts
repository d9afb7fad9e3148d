/**
 * What traces cost a call: one copy of the service at a time, measured in four settings in turn, tracing
 * off, off again (a control: its difference from off is the bench's noise by construction), on with 10 %
 * of traces sampled and on with every trace, the last two exporting OTLP/HTTP (protobuf, the SDK's
 * default) to a receiver in this process that reads and drops what it gets. Processor time per call for
 * a tool call that reads MongoDB (the apartment read) and a dated market search tool call
 * (Elasticsearch, MongoDB and pricing).
 *
 * Settings compared within one copy. Two fresh copies of the same setting, warmed and measured side by
 * side, differ by up to 15 % in processor time per call for their whole life (the heap and the code
 * each one grew), and a copy's own figure drifts by a third over its first minutes; compared copy
 * against copy, a 5 % difference was under the noise. So each group starts one copy
 * (./switched-service.ts: the service as `npm run serve` starts it, tracing on, with a control port) and
 * sets its tracing row by row (services/kernel/tracing-sdk.ts `retuneTracing`): the settings' rows
 * alternate in one process, in an order reversed from row to row, each row bracketed by a change of
 * setting that exports what the last one held and collects the heap whole (./tracing-control.ts), so
 * a row's processor time holds its own spans' export and garbage. "Off" in such a copy is the SDK
 * stopped and the API's globals cleared: the service's tracing code is one boolean test per call, as
 * in a copy started without an endpoint (its request histogram keeps the exemplar's form of
 * `observe`, a few tens of nanoseconds a call). A setting's cost in a group is its rows' processor
 * time per call over the off rows'; its figure is the median over the groups (BENCH_TRACE_GROUPS, five
 * by default; the floor's, three), each group's shown beside it. The stores' processor time (Elasticsearch and the
 * Mongo-wire server, from their /proc like the service's) is read around every row and reported apart:
 * the target is the service's own processor time.
 *
 * Beside them, the floor of tracing: the bench's bare Node server (floor-server.ts) measured the same
 * way after each of the service's first groups, answering the apartment read's lookups, and the dated market
 * search's Elasticsearch requests (captured in-process for 200 questions of the same kind), as a tool
 * result. Traced, it starts the SDK the service starts and makes one server span per request and a
 * client span per store call under a sampled trace, nothing else: what any implementation in front of
 * these stores pays for OpenTelemetry on this machine, per call and as a share of its own time.
 */
import { createServer } from 'node:http';
import { request } from 'undici';
import { freePort } from '../support/free-port';
import { runLoad, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { clockTicks, cpuTicks, stackPids } from './cpu';
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

const GROUPS = Math.max(1, Number(process.env.BENCH_TRACE_GROUPS) || 5);
/** Groups of the floor, after the service's first ones (it is the figures' context, not their target). */
const FLOOR_GROUPS = Math.min(GROUPS, Math.max(1, Number(process.env.BENCH_TRACE_FLOOR_GROUPS) || 3));
/** Rows per setting, call and group, each `seconds` long (the settings' order reversed from row to row). */
const ROWS = Math.max(1, Number(process.env.BENCH_TRACE_ROWS) || 2);
/**
 * Load per call before a group's first row, shared by the settings in turn: a fresh copy's processor
 * time per call falls over its first 20-30 s of load at full speed.
 */
const WARM_SECONDS = Math.max(1, Number(process.env.BENCH_TRACE_WARM_SECONDS) || 24);
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
  // Each copy starts traced (its request spans and exemplars in place), then is set row by row.
  const tenth = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
  const startEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'catalog-bench', ...tenth };
  const settings: Setting[] = [
    { title: 'tracing off', env: OFF },
    { title: 'off again (control)', env: OFF },
    { title: 'on, 10 % sampled', env: tenth },
    { title: 'on, every trace', env: { OTEL_TRACES_SAMPLER: 'parentbased_always_on' } },
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
  const stores = [es, mongo].filter((p): p is number => typeof p === 'number');
  /** tallies[shape][group][setting], the service's then the floor's. */
  const tallies = shapes.map(() => [] as Tally[][]);
  const floorTallies = floorShapes.map(() => [] as Tally[][]);
  const started = Date.now();
  for (let group = 0; group < GROUPS; group++) {
    const service = async (): Promise<Switched> => {
      const controlPort = await freePort();
      return switched(await ctx.serviceWith({ ...startEnv, CONTROL_PORT: String(controlPort) }, 'test/bench/switched-service.ts'), controlPort);
    };
    const floor = async (): Promise<Switched> => {
      const controlPort = await freePort();
      return switched(await ctx.floorWith({ ...startEnv, CONTROL_PORT: String(controlPort) }), controlPort);
    };
    await measureGroup(group, settings, service, shapes, tallies, stores, seconds);
    if (group < FLOOR_GROUPS) await measureGroup(group, settings, floor, floorShapes, floorTallies, stores, seconds);
  }
  const minutes = (Date.now() - started) / 60_000;

  say('## Traces (processor time per call, tracing off and on)');
  say('');
  say(
    `${GROUPS} groups, each one fresh copy set in the four settings in turn: warmed ${WARM_SECONDS} s per call (the settings in turn), ` +
      `then ${ROWS} rows of ${seconds} s per setting and call at ${CONNECTIONS} connections, the settings' order reversed from row to row ` +
      `(${minutes.toFixed(1)} min in all); a setting's cost in a group is its rows' processor time per call over the off rows', ` +
      `its figure the median over the groups. After each of the first ${FLOOR_GROUPS} groups of the service, a bare server (floor-server.ts) measured ` +
      `the same way: the floor.`,
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

/** Tracing set off in a running copy (its SDK stopped, the API's globals cleared). */
const OFF: Record<string, string> = { OTEL_SDK_DISABLED: 'true' };

/** A copy whose tracing the bench sets while it runs (./tracing-control.ts). */
interface Switched extends Copy {
  /** Sets the copy's tracing as `env` says over its own environment; resolves once the setting holds. */
  set(env: Record<string, string>): Promise<void>;
}

/** `copy`, set through its control port (which opens just after the copy answers: refused connections are tried again). */
function switched(copy: Copy, controlPort: number): Switched {
  return {
    ...copy,
    async set(env) {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await request(`http://127.0.0.1:${controlPort}/tracing`, { method: 'POST', body: JSON.stringify(env) });
          await res.body.dump();
          if (res.statusCode !== 204) throw new Error(`the copy's control answered ${res.statusCode}`);
          return;
        } catch (err) {
          if ((err as { code?: string }).code !== 'ECONNREFUSED' || attempt >= 50) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
  };
}

const msPerCall = (ticks: number, calls: number): number => ((ticks / clockTicks()) * 1_000) / calls;
const ms = (v: number): string => `${v >= 0 ? '' : '−'}${Math.abs(v).toFixed(3)}`;
const pct = (r: number): string => `${r >= 1 ? '' : '−'}${Math.abs((r - 1) * 100).toFixed(1)} %`;

/**
 * One group: one fresh copy (started by `start`), warmed in each setting in turn, then measured row by row,
 * each row every setting in turn (the order reversed from row to row); what each setting spent is added to
 * `tallies[shape][group]`. A row's processor time is read from just after its setting holds to just after
 * the copy is set off again (its spans exported and its heap collected: ./tracing-control.ts).
 */
async function measureGroup(
  group: number,
  settings: readonly Setting[],
  start: () => Promise<Switched>,
  shapes: readonly Shape[],
  tallies: Tally[][][],
  stores: number[],
  seconds: number,
): Promise<void> {
  const copy = await start();
  try {
    for (const shape of shapes) {
      for (const setting of settings) {
        await copy.set(setting.env);
        await runLoad(copy.url, shape.probe, { connections: CONNECTIONS, seconds: Math.max(1, WARM_SECONDS / settings.length) });
      }
    }
    for (const perShape of tallies) perShape[group] = settings.map(() => ({ service: 0, stores: 0, calls: 0, rps: 0, bad: 0 }));
    for (let row = 0; row < ROWS; row++) {
      for (const [s, shape] of shapes.entries()) {
        // The first setting of a row is the last of the row before: reversed, so no setting always follows the same one.
        const order = [...settings.keys()];
        if ((row + group) % 2 === 1) order.reverse();
        for (const i of order) {
          await copy.set(settings[i].env);
          const service0 = cpuTicks(copy.pid) ?? NaN;
          const stores0 = ticksOf(stores);
          const result = await runLoad(copy.url, shape.probe, { connections: CONNECTIONS, seconds });
          const storeTicks = ticksOf(stores) - stores0;
          await copy.set(OFF);
          const t = tallies[s][group][i];
          t.service += (cpuTicks(copy.pid) ?? NaN) - service0;
          t.stores += storeTicks;
          t.calls += result.requests;
          t.rps += result.rps / ROWS;
          t.bad += (result.statuses['5xx'] ?? 0) + (result.statuses.error ?? 0);
        }
      }
    }
  } finally {
    await copy.close();
  }
}
