/**
 * Request params checked before the SDK sees them, on both eras: a request whose params do not fit its
 * method is the client's fault, -32602 Invalid params in one line (SDK 2.4 answers them with its
 * validator's dump, and as -32603 Internal error for resources/read, prompts/get and initialize). Methods are looked up in a Map, so a method named after an
 * `Object.prototype` member (`constructor`, `__proto__`, …) is just an unknown method.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

type Params = Record<string, unknown>;
const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

const CHECKS = new Map<string, { fits: (params: Params) => boolean; expects: string }>([
  [
    'tools/call',
    { fits: (p) => typeof p.name === 'string' && (p.arguments === undefined || isObject(p.arguments)), expects: 'params {name: string, arguments?: object}' },
  ],
  ['resources/read', { fits: (p) => typeof p.uri === 'string', expects: 'params {uri: string}' }],
  [
    'prompts/get',
    {
      fits: (p) =>
        typeof p.name === 'string' && (p.arguments === undefined || (isObject(p.arguments) && Object.values(p.arguments).every((v) => typeof v === 'string'))),
      expects: 'params {name: string, arguments?: object of strings}',
    },
  ],
  ...['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'].map(
    (method) => [method, { fits: (p: Params) => p.cursor === undefined || typeof p.cursor === 'string', expects: 'params {cursor?: string}' }] as const,
  ),
  [
    'initialize',
    {
      fits: (p) =>
        typeof p.protocolVersion === 'string' &&
        isObject(p.capabilities) &&
        isObject(p.clientInfo) &&
        typeof p.clientInfo.name === 'string' &&
        typeof p.clientInfo.version === 'string',
      expects: 'params {protocolVersion, capabilities, clientInfo}',
    },
  ],
]);

/** A single JSON-RPC message object (not a batch): what invalidParamsError judges. */
export function isJSONRPCMessage(body: unknown): body is JSONRPCMessage {
  return isObject(body) && body.jsonrpc === '2.0';
}

/** The id of a JSON-RPC request body, or null (a notification, a batch, or no request at all). */
export function requestId(body: unknown): string | number | null {
  if (!isObject(body)) return null;
  return typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
}

/** The JSON-RPC error answering `message`, or null when its params fit its method (2026-07-28 has no `initialize`: the SDK refuses it). */
export function invalidParamsError(message: JSONRPCMessage, era: 'legacy' | 'modern' = 'legacy'): JSONRPCMessage | null {
  if (!('method' in message) || !('id' in message)) return null;
  if (era === 'modern' && message.method === 'initialize') return null;
  const check = CHECKS.get(message.method);
  if (!check) return null;
  // A list request may leave its params out; every other checked method needs them.
  if (message.params === undefined && message.method.endsWith('/list')) return null;
  if (isObject(message.params) && check.fits(message.params)) return null;
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: -32602, message: `Invalid params for ${message.method}: params is not valid; expected ${check.expects}.` },
  };
}
