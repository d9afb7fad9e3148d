/**
 * A mixed load over every tool of the registry, GET routes and tool-server calls alike, for a long
 * stretch (default 10 minutes): no answer may take over 1 s and none may be a 5xx. The arguments
 * come from test/support/tool-samples.ts; a tool without a sample there fails the bench.
 */
import { TOOLS } from '../../services/tools/registry';
import { runLoad, row, TABLE_HEAD, type Probe } from './load';
import { TOOL_SAMPLES, toolsWithoutSamples } from '../support/tool-samples';
import { GET_SAMPLES } from '../support/get-samples';
import type { BenchContext } from './store-bench';

let rpcId = 0;
function mcpCall(name: string, args: Record<string, unknown>): Probe {
  rpcId += 1;
  return {
    method: 'POST',
    path: '/mcp/public',
    body: JSON.stringify({ jsonrpc: '2.0', id: rpcId, method: 'tools/call', params: { name, arguments: args } }),
  };
}

export async function mixedLoadBench(ctx: BenchContext, seconds: number): Promise<void> {
  const missing = toolsWithoutSamples(TOOLS.map((t) => t.name));
  if (missing.length > 0) throw new Error(`no sample arguments for: ${missing.join(', ')} (add them to test/support/tool-samples.ts)`);
  const probes: Array<() => Probe> = [];
  for (const tool of TOOLS) {
    probes.push(() => mcpCall(tool.name, TOOL_SAMPLES[tool.name](ctx.sample)));
    const get = GET_SAMPLES[tool.name];
    if (get) probes.push(() => ({ path: get(ctx.sample) }));
  }
  const next = (): Probe => ctx.sample.pick(probes)();
  const result = await runLoad((await ctx.service()).url, next, { connections: 8, seconds, slowMs: 1_000 });
  ctx.say(`## Mixed load: every tool, GET and tool server, concurrency 8, ${seconds} s`);
  ctx.say('');
  ctx.say(TABLE_HEAD[0]);
  ctx.say(TABLE_HEAD[1]);
  ctx.say(row(`${TOOLS.length} tools, ${probes.length} request shapes`, result));
  ctx.say('');
  ctx.say(
    `Answers by status: ${Object.entries(result.statuses)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; ` + `slower than 1 s: **${result.slow}** (target 0); 5xx: **${result.statuses['5xx'] ?? 0}** (target 0).`,
  );
  ctx.say('');
}
