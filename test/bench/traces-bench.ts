/**
 * What traces cost a call: three copies of the service, tracing off (no OTLP endpoint: the SDK is not
 * loaded), on with 10 % of traces sampled and on with every trace, the last two exporting OTLP/HTTP
 * (protobuf, the SDK's default) to a receiver in this process that reads and drops what it gets. Each
 * copy's processor time per call at concurrency 16, for a tool call that reads MongoDB (the apartment
 * read) and a dated market search tool call (Elasticsearch, MongoDB and pricing); each copy warmed,
 * then rounds (five by default; BENCH_TRACE_ROUNDS), each measuring the copies there and back (off,
 * 10 %, every, every, 10 %, off); a copy's cost in a round is its processor time over the off copy's in
 * that round, and the median of the rounds is reported. On a shared machine a round's ratio moves by ±10
 * points, more than the copies differ: more, shorter rounds give a steadier median than a few long ones.
 */
import { createServer } from 'node:http';
import { runLoad, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { withCpu } from './cpu';

let rpc = 0;
const toolCall = (name: string, args: Record<string, unknown>): Probe => ({
  method: 'POST',
  path: '/mcp/public',
  body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args } }),
});

const ROUNDS = Math.max(1, Number(process.env.BENCH_TRACE_ROUNDS) || 5);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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

export async function tracesBench(ctx: BenchContext, seconds: number): Promise<void> {
  const { say, sample } = ctx;
  const sink = await receiver();
  {
    const exporting = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'catalog-bench' };
    const copies = [
      { title: 'tracing off', svc: await ctx.serviceWith({}) },
      {
        title: 'on, 10 % sampled',
        svc: await ctx.serviceWith({ ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
      },
      { title: 'on, every trace', svc: await ctx.serviceWith({ ...exporting, OTEL_TRACES_SAMPLER: 'parentbased_always_on' }) },
    ];
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
    // Each copy warmed first (its code compiled, its caches filled): the first seconds of a fresh process are no round of the three.
    for (const shape of shapes) for (const copy of copies) await runLoad(copy.svc.url, shape.probe, { connections: 16, seconds: Math.max(3, seconds / 2) });
    // The machine's speed drifts by a third within minutes: each round measures the copies there and back
    // (off, 10 %, every, every, 10 %, off), and a copy's cost is the ratio of its two rows to the off copy's
    // two in the same round. The median of the rounds' ratios is reported, beside the median ms/call.
    const order = [...copies, ...[...copies].reverse()];
    const cpu = new Map<string, number[]>();
    const ratios = new Map<string, number[]>();
    const rps = new Map<string, number[]>();
    const bad = new Map<string, number>();
    const push = <T>(m: Map<string, T[]>, key: string, v: T): void => void (m.get(key) ?? m.set(key, []).get(key)!).push(v);
    for (let round = 0; round < ROUNDS; round++) {
      for (const shape of shapes) {
        const sum = new Map<string, number>();
        for (const copy of order) {
          const key = `${shape.title}|${copy.title}`;
          const { result, cpu: per } = await withCpu({ service: copy.svc.pid }, () => runLoad(copy.svc.url, shape.probe, { connections: 16, seconds }));
          const ms = per.service ?? NaN;
          push(cpu, key, ms);
          push(rps, key, result.rps);
          sum.set(copy.title, (sum.get(copy.title) ?? 0) + ms);
          bad.set(key, (bad.get(key) ?? 0) + (result.statuses['5xx'] ?? 0) + (result.statuses.error ?? 0));
        }
        for (const copy of copies) push(ratios, `${shape.title}|${copy.title}`, sum.get(copy.title)! / sum.get('tracing off')!);
      }
    }
    say('## Traces (processor time per call, tracing off and on)');
    say('');
    say(`| call, c=16 | copy | req/s (median) | service CPU ms/call (median) | more than tracing off (median of ${ROUNDS} rounds) | each round | 5xx/errors |`);
    say('|---|---|---|---|---|---|---|');
    const pct = (r: number): string => `${((r - 1) * 100).toFixed(1)} %`;
    for (const shape of shapes) {
      for (const copy of copies) {
        const key = `${shape.title}|${copy.title}`;
        const r = ratios.get(key)!;
        say(
          `| ${shape.title} | ${copy.title} | ${Math.round(median(rps.get(key)!))} | ${median(cpu.get(key)!).toFixed(3)} | ${pct(median(r))} | ${r.map(pct).join(', ')} | ${bad.get(key)} |`,
        );
      }
    }
    say('');
    say(`The receiver got ${(sink.bytes() / 2 ** 20).toFixed(1)} MiB of OTLP.`);
    say('');
    say('Target: tracing on with 10 % sampled costs at most 5 % more processor time per call than tracing off.');
    say('');
  }
}
