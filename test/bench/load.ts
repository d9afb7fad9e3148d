/**
 * A closed-loop load driver: `connections` workers each send the next request as soon as the last
 * answered, for `seconds`. Every answer's latency is kept (whatever its status, in µs), so p50/p99
 * are exact and below a millisecond when they are; autocannon rounds to whole ms and leaves
 * non-2xx answers out of its latencies, which would hide the unknown-slug lookups.
 */
import { Agent, request } from 'undici';

export interface Probe {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Extra request headers (a 2026-07-28 tool call's Mcp-* headers). */
  headers?: Record<string, string>;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers by status class: "2xx", "4xx", "5xx", plus "error" for transport failures. */
  statuses: Record<string, number>;
  /** Answers slower than `slowMs`. */
  slow: number;
}

/**
 * Reads an answer's body to its end and drops it. undici's `dump()` alone reads at most 128 kB and
 * destroys a longer body, and its connection with it: the answer would be timed to its headers and
 * the next request would open a new connection (a map answer with 250 pins is about 275 kB).
 */
export const drain = (body: { dump(opts?: { limit?: number }): Promise<unknown> }): Promise<unknown> => body.dump({ limit: Number.MAX_SAFE_INTEGER });

export const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** BENCH_SHAPES=flex,overview: only the rows whose title holds one of the words are measured (all when unset). */
export function measured(title: string): boolean {
  const words = process.env.BENCH_SHAPES?.split(',').filter(Boolean) ?? [];
  return words.length === 0 || words.some((w) => title.toLowerCase().includes(w.toLowerCase()));
}

/** What browsers, fetch and every MCP client send: each row is asked as clients ask (a probe may say otherwise). */
export const CLIENT_ACCEPT_ENCODING = { 'accept-encoding': 'gzip, deflate, br' } as const;
/** A row asked without compression, beside a compressed one. */
export const IDENTITY = { 'accept-encoding': 'identity' } as const;

/** One probe asked and its answer read to the end: how long it took, and its status class (or `error`). */
async function askOnce(baseUrl: string, agent: Agent, probe: Probe): Promise<{ ms: number; key: string }> {
  const t = process.hrtime.bigint();
  let key: string;
  try {
    const res = await request(baseUrl + probe.path, {
      dispatcher: agent,
      method: probe.method ?? 'GET',
      body: probe.body,
      headers: {
        ...CLIENT_ACCEPT_ENCODING,
        ...(probe.body ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {}),
        ...probe.headers,
      },
    });
    await drain(res.body);
    key = `${Math.floor(res.statusCode / 100)}xx`;
  } catch {
    key = 'error';
  }
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, key };
}

/** A load's figures from its latencies (sorted here) over `elapsed` seconds. */
function summarised(latencies: number[], elapsed: number, statuses: Record<string, number>, slow: number): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    statuses,
    slow,
  };
}

export async function runLoad(baseUrl: string, next: () => Probe, opts: { connections: number; seconds: number; slowMs?: number }): Promise<LoadResult> {
  const agent = new Agent({ connections: opts.connections, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const slowMs = opts.slowMs ?? 1_000;
  let slow = 0;
  const started = process.hrtime.bigint();
  const until = Date.now() + opts.seconds * 1_000;
  const worker = async (): Promise<void> => {
    while (Date.now() < until) {
      const { ms, key } = await askOnce(baseUrl, agent, next());
      latencies.push(ms);
      if (ms > slowMs) slow += 1;
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, worker));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  await agent.close();
  return summarised(latencies, elapsed, statuses, slow);
}

/**
 * Several shapes asked in turn on one connection (c=1), each timed on its own: a ratio of two of
 * them is read from one stretch of time, not from rows measured a minute apart (a p50 drifts by
 * more than a target's margin between such rows on a shared machine).
 */
export async function runInTurn(baseUrl: string, sources: ReadonlyArray<() => Probe>, seconds: number): Promise<LoadResult[]> {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
  const latencies: number[][] = sources.map(() => []);
  const statuses: Array<Record<string, number>> = sources.map(() => ({}));
  const started = process.hrtime.bigint();
  const until = Date.now() + seconds * 1_000;
  for (let turn = 0; Date.now() < until; turn++) {
    // Each turn starts with another shape, so none is always asked right after the same one.
    for (let j = 0; j < sources.length; j++) {
      const i = (turn + j) % sources.length;
      const { ms, key } = await askOnce(baseUrl, agent, sources[i]());
      latencies[i].push(ms);
      statuses[i][key] = (statuses[i][key] ?? 0) + 1;
    }
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  await agent.close();
  return latencies.map((l, i) => summarised(l, elapsed, statuses[i], 0));
}

/** Two decimals under 10 ms, one under 100 (a p99 against a 10 ms target reads 10.4, not 10), none above. */
export const fmt = (ms: number): string => ms.toFixed(ms < 10 ? 2 : ms < 100 ? 1 : 0);

export function row(title: string, r: LoadResult): string {
  const bad = (r.statuses['5xx'] ?? 0) + (r.statuses.error ?? 0);
  return `| ${title} | ${Math.round(r.rps)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${bad} |`;
}

export const TABLE_HEAD = ['| what | req/s | p50 ms | p99 ms | max ms | 5xx/errors |', '|---|---|---|---|---|---|'];

/** Closed-loop load of one store call (or a sequence of them), timed per call. */
export async function storeLoad(call: () => Promise<void>, connections: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1_000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const t = process.hrtime.bigint();
        await call();
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    statuses: { '2xx': latencies.length },
    slow: 0,
  };
}
