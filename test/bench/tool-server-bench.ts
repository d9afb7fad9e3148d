/**
 * A tool call beside its GET: the apartment read and the quote, with the same
 * sampled slugs and stays (the whole inventory, 10 % unknown), as a GET, as a 2025-11-25 tools/call
 * and as a 2026-07-28 tools/call (envelope and Mcp-* headers, as the SDK v2 client sends it), at
 * concurrency 1 and 16; then at 16 again on a copy with the fast tool call off (the SDK path alone);
 * the throughput each keeps of its GET, and the service's processor time per call.
 */
import { runLoad, row, type LoadResult, type Probe } from './load';
import type { BenchContext } from './store-bench';
import { withCpuAt16, type CpuPerCall } from './cpu';

const MODERN = '2026-07-28';
let rpc = 0;

function toolCall(era: 'legacy' | 'modern', name: string, args: Record<string, unknown>): Probe {
  const params: Record<string, unknown> = { name, arguments: args };
  if (era === 'legacy') {
    return { method: 'POST', path: '/mcp/public', body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params }) };
  }
  params._meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  return {
    method: 'POST',
    path: '/mcp/public',
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params }),
    headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name },
  };
}

export async function toolServerBench(ctx: BenchContext, seconds: number): Promise<void> {
  const { say, sample } = ctx;
  const svc = await ctx.service();
  const shapes: Array<{ title: string; get: () => Probe; tool: (era: 'legacy' | 'modern') => Probe }> = [
    {
      title: 'apartment read',
      get: () => ({ path: `/api/public/homes/${sample.slugOrUnknown()}` }),
      tool: (era) => toolCall(era, 'get_apartment_tool', { slug: sample.slugOrUnknown() }),
    },
    {
      title: 'quote',
      get: () => {
        const stay = sample.stay();
        return { path: `/api/public/homes/${sample.slugOrUnknown()}/quote?check_in=${stay.start}&check_out=${stay.end}` };
      },
      tool: (era) => {
        const stay = sample.stay();
        return toolCall(era, 'get_quote_tool', { home_slug: sample.slugOrUnknown(), start_date: stay.start, end_date: stay.end });
      },
    },
  ];
  say('## Tool calls beside their GET (slugs over the whole inventory, 10 % unknown)');
  say('');
  const head = '| what | req/s | of the GET | p50 ms | p99 ms | max ms | 5xx/errors | service CPU ms/call (c=16) |';
  const lines: string[] = [head, '|---|---|---|---|---|---|---|---|'];
  const cell = (title: string, r: LoadResult, of: number, cpu: CpuPerCall): string => {
    const base = row(title, r).split(' | ');
    base.splice(2, 0, `${Math.round((r.rps / of) * 100)} %`);
    return `${base.join(' | ').replace(/ \|$/, '')} | ${cpu.service?.toFixed(2) ?? ''} |`;
  };
  for (const connections of [1, 16]) {
    for (const shape of shapes) {
      const get = await withCpuAt16(connections, { service: svc.pid }, () => runLoad(svc.url, shape.get, { connections, seconds }));
      lines.push(cell(`GET ${shape.title}, c=${connections}`, get.result, get.result.rps, get.cpu));
      for (const era of ['legacy', 'modern'] as const) {
        const label = era === 'legacy' ? '2025-11-25' : MODERN;
        const call = await withCpuAt16(connections, { service: svc.pid }, () => runLoad(svc.url, () => shape.tool(era), { connections, seconds }));
        lines.push(cell(`tools/call ${shape.title} (${label}), c=${connections}`, call.result, get.result.rps, call.cpu));
      }
    }
  }
  // The same calls on the SDK path alone (no fast tool call, no prepared answer): what decides whether
  // the fast path is kept (it is only while this stays under 80 % of the GET at concurrency 16).
  const sdkOnly = await ctx.serviceWith({ MCP_FAST_TOOL_CALLS: 'false' });
  for (const shape of shapes) {
    const get = await withCpuAt16(16, { service: sdkOnly.pid }, () => runLoad(sdkOnly.url, shape.get, { connections: 16, seconds }));
    lines.push(cell(`GET ${shape.title}, c=16 (SDK-path copy)`, get.result, get.result.rps, get.cpu));
    for (const era of ['legacy', 'modern'] as const) {
      const label = era === 'legacy' ? '2025-11-25' : MODERN;
      const call = await withCpuAt16(16, { service: sdkOnly.pid }, () => runLoad(sdkOnly.url, () => shape.tool(era), { connections: 16, seconds }));
      lines.push(cell(`tools/call ${shape.title} (${label}), SDK path, c=16`, call.result, get.result.rps, call.cpu));
    }
  }
  for (const line of lines) say(line);
  say('');
  say("Target: at concurrency 16, tools/call of get_apartment_tool and get_quote_tool keeps at least 80 % of the same GET's throughput.");
  say('');
}
