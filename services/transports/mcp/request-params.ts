/**
 * Request params checked before the SDK sees them: the SDK parses each request with its own zod
 * schema and answers a failure as -32603 Internal error carrying zod's JSON dump. A request whose
 * params do not fit its method is the client's fault: -32602 Invalid params, in one line.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, isJSONRPCRequest, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const SCHEMAS = {
  'tools/call': { schema: CallToolRequestSchema, expects: 'params {name: string, arguments?: object}' },
  'resources/read': { schema: ReadResourceRequestSchema, expects: 'params {uri: string}' },
  initialize: { schema: InitializeRequestSchema, expects: 'params {protocolVersion, capabilities, clientInfo}' },
} as const;

/** The JSON-RPC error answering `message`, or null when its params fit its method. */
export function invalidParamsError(message: JSONRPCMessage): JSONRPCMessage | null {
  if (!isJSONRPCRequest(message)) return null;
  const known = SCHEMAS[message.method as keyof typeof SCHEMAS];
  if (!known) return null;
  const parsed = known.schema.safeParse(message);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = issue ? issue.path.join('.') || 'params' : 'params';
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${message.method}: ${where} is not valid; expected ${known.expects}.` },
  };
}
