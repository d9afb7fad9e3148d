/**
 * A mixed load over every tool of the registry, GET routes and tool-server calls alike, for a long
 * stretch (default 10 minutes): no answer may take over 1 s and none may be a 5xx. The arguments
 * come from test/support/tool-samples.ts; a tool without a sample there fails the bench.
 */
import { TOOLS } from '../../services/tools/registry';
import { runLoad, row, TABLE_HEAD, type Probe } from './load';
import type { Sample } from './sample';
import { TOOL_SAMPLES, toolsWithoutSamples } from '../support/tool-samples';
import type { BenchContext } from './store-bench';

/** The same calls through the GET API where a tool has a route. */
const GET_PROBES: Record<string, (s: Sample) => string> = {
  list_markets_tool: () => '/api/public/markets',
  get_policies_faq_tool: () => '/api/public/policies-faq',
  get_apartment_tool: (s) => `/api/public/homes/${s.slugOrUnknown()}`,
  get_flex_options_tool: (s) => `/api/public/homes/${s.slugOrUnknown()}/flex-options`,
  get_quote_tool: (s) => {
    const stay = s.stay();
    return `/api/public/homes/${s.slugOrUnknown()}/quote?check_in=${stay.start}&check_out=${stay.end}`;
  },
  get_market_filters_tool: (s) => `/api/public/market-filters?market=${s.pick([s.marketSlug(), s.citySlug()])}`,
  get_market_info: (s) => `/api/public/market-info?market=${s.marketSlug()}&home=${s.slugOrUnknown()}`,
};

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
    const get = GET_PROBES[tool.name];
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
    `Answers by status: ${Object.entries(result.statuses).map(([k, v]) => `${k} ${v}`).join(', ')}; ` +
      `slower than 1 s: **${result.slow}** (target 0); 5xx: **${result.statuses['5xx'] ?? 0}** (target 0).`,
  );
  ctx.say('');
}
