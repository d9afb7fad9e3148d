/**
 * Overload (`npm run bench -- --only overload`): a copy offered 2× and 4× what it can serve, for a
 * minute each, with a realistic mix (every read tool, GET and tool server, as the mixed section). The
 * copy must shed what it cannot serve (429 or 503, each with Retry-After) and keep serving the rest:
 * the admitted requests' p99 within 3× the unloaded p99, no other 5xx, memory bounded, and full
 * service back within 5 s of the load stopping.
 *
 * Unloaded: the mix at concurrency 1. Capacity: the answers a second (2xx and 4xx, not shed) at
 * concurrency 16. The offered load is open-loop: requests leave at a fixed rate whether or not the
 * earlier ones were answered, as independent clients send them.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { Agent, request } from 'undici';
import { TOOLS } from '../../services/tools/registry';
import { GET_SAMPLES } from '../support/get-samples';
import { TOOL_SAMPLES } from '../support/tool-samples';
import { drain, fmt, percentile, runLoad, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { clockTicks, cpuTicks, stackPids } from './cpu';

const OFFERED_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 60);
const TIMEOUT_MS = 15_000;

function probes(ctx: BenchContext): Array<() => Probe> {
  let id = 0;
  const out: Array<() => Probe> = [];
  for (const tool of TOOLS) {
    if (tool.name === 'booking_intent_tool') continue;
    out.push(() => ({
      method: 'POST',
      path: '/mcp/public',
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: tool.name, arguments: TOOL_SAMPLES[tool.name](ctx.sample) } }),
    }));
    const get = GET_SAMPLES[tool.name];
    if (get) out.push(() => ({ path: get(ctx.sample) }));
  }
  return out;
}

interface Offered {
  sent: number;
  admitted: number[];
  /** How long the shed answers took (ms). */
  shedMs: number[];
  shed: number;
  shedWithoutRetryAfter: number;
  other5xx: number;
  errors: number;
  maxRssMb: number;
  /** Cores each process used while the load was offered (processor seconds per second). */
  cores: Record<string, number>;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Requests at `rate` a second for `seconds`, each on its own, whatever became of the earlier ones. */
async function openLoop(url: string, pid: number, next: () => Probe, rate: number, seconds: number): Promise<Offered> {
  const agent = new Agent({ connections: 1_024, keepAliveTimeout: 30_000, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  const out: Offered = { sent: 0, admitted: [], shedMs: [], shed: 0, shedWithoutRetryAfter: 0, other5xx: 0, errors: 0, maxRssMb: 0, cores: {} };
  const pids: Record<string, number | undefined> = { 'load generator': process.pid, service: pid, ...stackPids() };
  const ticksBefore = Object.fromEntries(Object.entries(pids).map(([name, p]) => [name, p ? cpuTicks(p) : null]));
  const t0 = Date.now();
  const inFlight = new Set<Promise<void>>();
  const memory = setInterval(() => (out.maxRssMb = Math.max(out.maxRssMb, rssMb(pid))), 250);
  const one = async (probe: Probe): Promise<void> => {
    const t = process.hrtime.bigint();
    try {
      const res = await request(url + probe.path, {
        dispatcher: agent,
        method: probe.method ?? 'GET',
        body: probe.body,
        headers: probe.body ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {},
      });
      await drain(res.body);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (res.statusCode === 429 || res.statusCode === 503) {
        out.shed += 1;
        out.shedMs.push(ms);
        if (!res.headers['retry-after']) out.shedWithoutRetryAfter += 1;
      } else if (res.statusCode >= 500) out.other5xx += 1;
      else out.admitted.push(ms);
    } catch {
      out.errors += 1;
    }
  };
  const started = Date.now();
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1_000) / rate;
    const wait = due - Date.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const p = one(next());
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    out.sent += 1;
  }
  await Promise.all(inFlight);
  clearInterval(memory);
  const elapsed = (Date.now() - t0) / 1_000;
  for (const [name, p] of Object.entries(pids)) {
    const before = ticksBefore[name];
    const after = p ? cpuTicks(p) : null;
    if (before !== null && before !== undefined && after !== null) out.cores[name] = (after - before) / clockTicks() / elapsed;
  }
  await agent.close();
  out.admitted.sort((a, b) => a - b);
  out.shedMs.sort((a, b) => a - b);
  return out;
}

/** Seconds from now until `probe` is served five times in a row (every 100 ms): any answer but a shed one or another 5xx (the mix asks for unknown homes too). */
async function recovery(url: string, probe: () => Probe): Promise<number> {
  const t = Date.now();
  let inRow = 0;
  while (inRow < 5 && Date.now() - t < 60_000) {
    const p = probe();
    const res = await request(url + p.path, { method: p.method ?? 'GET' });
    await drain(res.body);
    inRow = res.statusCode < 500 && res.statusCode !== 429 ? inRow + 1 : 0;
    if (inRow < 5) await new Promise((r) => setTimeout(r, 100));
  }
  return (Date.now() - t) / 1_000;
}

/**
 * The floor of an overloaded copy on this machine: a bare Node server, in its own process, that sheds
 * every request at once (503, Retry-After) and does nothing else. Offered the same load, what its
 * answers take and the cores it and the load generator use are what no copy can do better than while
 * it also works for the admitted requests.
 */
async function shedAllServer(): Promise<{ url: string; pid: number; close: () => Promise<void> }> {
  const script =
    "const s=require('node:http').createServer((q,r)=>{q.resume();r.writeHead(503,{'content-type':'application/json','retry-after':'1'});" +
    'r.end(\'{"error":{"code":"service_unavailable","message":"at capacity"}}\')});' +
    "s.maxConnections=1024;s.listen(0,'127.0.0.1',()=>console.log(s.address().port))";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, close: async () => void (child.kill('SIGTERM'), await exited) };
}

export async function overloadBench(ctx: BenchContext, seconds: number): Promise<void> {
  // The copy's own bound (the bench's other sections lift it to measure throughput); BENCH_MAX_IN_FLIGHT tries another.
  const bound = process.env.BENCH_MAX_IN_FLIGHT;
  // The load stands for many clients, all on this machine's one address: no per-client share.
  const svc = await ctx.serviceWith({ MAX_IN_FLIGHT: bound ?? '', MAX_IN_FLIGHT_PER_CLIENT: '100000' });
  const mix = probes(ctx);
  const next = (): Probe => ctx.sample.pick(mix)();
  const unloaded = await runLoad(svc.url, next, { connections: 1, seconds });
  const full = await runLoad(svc.url, next, { connections: 16, seconds });
  const served = full.requests - (full.statuses['5xx'] ?? 0) - (full.statuses.error ?? 0);
  const capacity = (served / full.requests) * full.rps;
  const idleRss = rssMb(svc.pid);
  ctx.say(`## Overload: the mix offered at 2× and 4× a copy's capacity, ${OFFERED_SECONDS} s each${bound ? ` (MAX_IN_FLIGHT=${bound})` : ''}`);
  ctx.say('');
  ctx.say(
    `Unloaded (concurrency 1): p50 ${fmt(unloaded.p50)} ms, p99 **${fmt(unloaded.p99)} ms**. Capacity (concurrency 16, answers not shed): ` +
      `**${Math.round(capacity)}/s** (p99 ${fmt(full.p99)} ms). RSS before: ${idleRss.toFixed(0)} MB.`,
  );
  ctx.say('');
  ctx.say(
    '| offered | sent | admitted | admitted p50 / p99 ms (target p99 ≤ 3 × unloaded) | shed 429/503 (p50 / p99 ms) | shed without Retry-After | other 5xx | errors | max RSS MB | full service again after |',
  );
  ctx.say('|---|---|---|---|---|---|---|---|---|---|');
  const cores: string[] = [];
  const factors = (process.env.BENCH_OVERLOAD_FACTORS ?? '2,4').split(',').map(Number);
  for (const factor of factors) {
    const o = await openLoop(svc.url, svc.pid, next, capacity * factor, OFFERED_SECONDS);
    const back = await recovery(svc.url, next);
    const p99 = percentile(o.admitted, 99);
    const met = p99 <= 3 * unloaded.p99 && o.other5xx === 0 && o.shedWithoutRetryAfter === 0 && o.errors === 0 && back <= 5;
    ctx.say(
      `| ${factor}× (${Math.round(capacity * factor)}/s) | ${o.sent} | ${o.admitted.length} (${Math.round(o.admitted.length / OFFERED_SECONDS)}/s) | ` +
        `${fmt(percentile(o.admitted, 50))} / **${fmt(p99)}** (${(p99 / unloaded.p99).toFixed(1)} ×) | ${o.shed} (${fmt(percentile(o.shedMs, 50))} / ${fmt(percentile(o.shedMs, 99))}) | ${o.shedWithoutRetryAfter} | ${o.other5xx} | ${o.errors} | ` +
        `${o.maxRssMb.toFixed(0)} | **${back.toFixed(1)} s** | ${met ? 'met' : 'missed'}`,
    );
    cores.push(
      `${factor}×: ${Object.entries(o.cores)
        .map(([name, c]) => `${name} ${c.toFixed(2)}`)
        .join(', ')}`,
    );
  }
  const floor = await shedAllServer();
  try {
    const factor = factors[factors.length - 1];
    const f = await openLoop(floor.url, floor.pid, next, capacity * factor, Math.min(OFFERED_SECONDS, 20));
    ctx.say('');
    ctx.say(
      `Floor: a bare Node server shedding every request at once, offered ${factor}× for ${Math.min(OFFERED_SECONDS, 20)} s: ` +
        `its ${f.shed} answers took p50 ${fmt(percentile(f.shedMs, 50))} / p99 ${fmt(percentile(f.shedMs, 99))} ms, ${f.errors} errors; ` +
        `cores: ${Object.entries(f.cores)
          .map(([name, c]) => `${name} ${c.toFixed(2)}`)
          .join(', ')}.`,
    );
  } finally {
    await floor.close();
  }
  ctx.say('');
  ctx.say(`Cores used while the load was offered (the machine has ${os.cpus().length}): ${cores.join('; ')}.`);
  ctx.say('');
}
