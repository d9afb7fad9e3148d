/**
 * The MCP server of one request, for both protocol eras (SDK v2's low-level `Server`, so tools keep
 * our own JSON Schemas and error object). Unknown tools are JSON-RPC errors; invalid arguments and
 * business failures are tool results with `isError: true` carrying the error object (docs/design.md,
 * "One registry, two transports"). The widgets are its resources (./resources.ts), the prompts come
 * from the registry (../../tools/prompts.ts), and a write that needs the guest's word asks for it
 * where the client can answer (./guest-confirmation.ts).
 */
import { ProtocolError, ProtocolErrorCode, Server, type ServerContext } from '@modelcontextprotocol/server';
import { toolContext } from '../../tools/invoke';
import { listedTools } from '../../tools/registry';
import { PROMPTS, promptMessages } from '../../tools/prompts';
import { SERVER_INFO } from '../../tools/server-identity';
import type { RequestScope, Tool } from '../../tools/tool';
import { WIDGET_EXTENSION } from '../../widgets/catalog';
import { rendersWidgets } from './client-support';
import { DIAGNOSTIC_TOOLS, runDiagnostic } from './conformance-diagnostics';
import { askGuestToConfirm, type ConfirmationOutcome } from './guest-confirmation';
import { registerWidgetResources } from './resources';
import { callTool, errorResult, refusedCall, registeredTool, type ToolServerContext } from './tool-call';
import type { ApiError } from '../../kernel/errors';
import { toolsList } from './tool-list';

export const INSTRUCTIONS =
  'Public catalog of furnished apartments for fixed stays and open-ended Flex stays. Typical flow: ' +
  'list_markets_tool to find a market or city slug; search with that slug and dates; get_quote_tool for the chosen ' +
  'home and the same dates. Dates are YYYY-MM-DD (start_date/end_date). Quote display_price_with_discount, never a bare rate.';

/** What this server honours, the same in `initialize` and `server/discover`: nothing changes while it runs. */
export const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
  prompts: { listChanged: false },
  extensions: WIDGET_EXTENSION,
};

/**
 * Caching hints of 2026-07-28 results: the lists, the widgets and discovery change only with a new
 * release, and are the same for every caller declaring the same capabilities (tools/list lists a host
 * of widgets one tool more, by what its own request declares), so any cache may keep them for five minutes.
 */
const FIVE_MINUTES_PUBLIC = { ttlMs: 300_000, cacheScope: 'public' } as const;
const CACHE_HINTS = {
  'tools/list': FIVE_MINUTES_PUBLIC,
  'resources/list': FIVE_MINUTES_PUBLIC,
  'resources/templates/list': FIVE_MINUTES_PUBLIC,
  'resources/read': FIVE_MINUTES_PUBLIC,
  'prompts/list': FIVE_MINUTES_PUBLIC,
  'server/discover': FIVE_MINUTES_PUBLIC,
};

/** tools/list is one of two lists (a host of widgets', any other client's): each derived once per registry. */
type Listed = ReturnType<typeof toolsList>;
const LISTED = new WeakMap<readonly Tool[], { plain: Listed; host: Listed }>();
function listedOnce(tools: readonly Tool[], diagnostics: boolean, hostsWidgets: boolean): Listed {
  let lists = LISTED.get(tools);
  if (!lists) LISTED.set(tools, (lists = { plain: toolsList(listedTools(tools, false)), host: toolsList(listedTools(tools, true)) }));
  const listed = hostsWidgets ? lists.host : lists.plain;
  return diagnostics ? { tools: [...listed.tools, ...DIAGNOSTIC_TOOLS] } : listed;
}

/** `refusal`: the rate-limit refusal this request's tool call answers (counted at the door, ./admission.ts), or null. */
export function createMcpServer(context: ToolServerContext, scope: RequestScope, refusal: ApiError | null = null): Server {
  const { tools, deps } = context;
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, cacheHints: CACHE_HINTS });
  registerWidgetResources(server, deps.config.publicBaseUrl);
  const diagnostics = deps.config.mcpConformanceTools;
  // A 2025 host of widgets is known by its session (scope), a 2026-07-28 one by the request's envelope.
  server.setRequestHandler('tools/list', async (_request, ctx: ServerContext) =>
    listedOnce(tools, diagnostics, scope.rendersWidgets === true || rendersWidgets(ctx.mcpReq.envelope)),
  );
  server.setRequestHandler('prompts/list', async () => ({
    prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })),
  }));
  server.setRequestHandler('prompts/get', async (request) => {
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const messages = promptMessages(prompt, request.params.arguments ?? {});
    if (typeof messages === 'string') throw new ProtocolError(ProtocolErrorCode.InvalidParams, messages);
    return { description: prompt.description, messages };
  });
  server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const name = request.params.name;
    const tool = registeredTool(context, name);
    if (!tool) {
      const diagnostic = diagnostics ? runDiagnostic(name, ctx) : null;
      if (diagnostic) return diagnostic;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    if (refusal) return refusedCall(refusal, deps, name, scope.traceId);
    const rawArgs = request.params.arguments ?? {};
    const callScope: RequestScope = rendersWidgets(ctx.mcpReq.envelope) ? { ...scope, rendersWidgets: true } : scope;
    if (!tool.confirmationFor) return callTool(context, callScope, tool, rawArgs);
    let outcome: ConfirmationOutcome;
    try {
      outcome = await askGuestToConfirm(tool, rawArgs, ctx, toolContext(deps, callScope));
    } catch (err) {
      return errorResult(err, deps, name, scope.traceId);
    }
    if (outcome.kind === 'answer') return outcome.result;
    // The write records what the person accepted, when they were asked.
    return callTool(context, outcome.confirmed ? { ...callScope, confirmed: outcome.confirmed } : callScope, tool, rawArgs);
  });
  return server;
}
