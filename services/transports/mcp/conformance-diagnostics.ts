/**
 * The diagnostic tools the official conformance suite's `server-stateless` scenario calls by name
 * (SEP-2575): with them it checks this server's own wiring, that a request needing a capability the
 * client did not declare is refused with -32021 and HTTP 400, that an input request never travels as a
 * server-to-client request on the response stream, and that no log message is sent unasked. Off unless
 * MCP_CONFORMANCE_TOOLS is true (the conformance test's instance); never listed otherwise.
 */
import { inputRequired, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { ListedTool } from './tool-list';

const NO_ARGUMENTS = { type: 'object' as const, properties: {}, additionalProperties: false };
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

type Diagnostic = (ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>;

const DIAGNOSTICS: Record<string, { description: string; run: Diagnostic }> = {
  test_missing_capability: {
    description: 'Conformance diagnostic: asks for sampling, which the calling client must have declared.',
    run: async () =>
      inputRequired({
        inputRequests: { sample: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }], maxTokens: 1 }) },
      }),
  },
  test_streaming_elicitation: {
    description: 'Conformance diagnostic: asks the user a yes/no question through an input-required result.',
    run: async () =>
      inputRequired({
        inputRequests: { go_on: inputRequired.elicit({ message: 'Continue?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }) },
      }),
  },
  test_logging_tool: {
    description: 'Conformance diagnostic: logs a line, which reaches the client only when it asked for a log level.',
    run: async (ctx) => {
      await ctx.mcpReq.log('info', 'conformance diagnostic log line').catch(() => undefined);
      return { content: [{ type: 'text', text: 'logged' }] };
    },
  },
};

export const DIAGNOSTIC_TOOLS: ListedTool[] = Object.entries(DIAGNOSTICS).map(([name, { description }]) => ({
  name,
  title: name,
  description,
  inputSchema: NO_ARGUMENTS,
  outputSchema: { type: 'object', properties: {} },
  annotations: { title: name, ...READ_ONLY },
}));

/** The diagnostic's answer, or null when `name` is not one (a Map-free lookup that no prototype name fools). */
export function runDiagnostic(name: string, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> | null {
  return Object.hasOwn(DIAGNOSTICS, name) ? DIAGNOSTICS[name].run(ctx) : null;
}
