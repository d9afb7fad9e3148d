/**
 * POST /mcp/public on Koa, both protocol eras through one SDK entry, `createMcpHandler` on its default
 * posture: a request carrying the 2026-07-28 `_meta` envelope is served per request (envelope,
 * headers, discover, caching hints, input-required results); every other request is 2025-11-25 /
 * 2025-06-18 and is served by the SDK's stateless legacy mode (a fresh server per request, its answer
 * an event stream of one message). Both build the same server (./server.ts). Before the SDK sees a
 * message, this route counts it at the door and weighs it (./admission.ts), caps and parses its body,
 * checks Origin and Host (ours, then the SDK middleware's validators: ./origin-guard.ts), refuses batches and
 * params that do not fit their method (./request-params.ts), answers what every caller gets alike
 * from a prepared buffer (./prepared-answers.ts), gives a 2025 host of widgets a session id that says so
 * (./apps-session.ts), and answers the plainest tool calls without an SDK
 * server (./fast-tool-call.ts: kept while the SDK path alone stays under 80 % of the GET's throughput
 * in the bench's tool-server section). GET, DELETE, PUT and PATCH answer 405.
 */
import type Router from '@koa/router';
import getRawBody from 'raw-body';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { Context } from 'koa';
import type { Deps } from '../../deps';
import type { PhotoStore } from '../../media/photos';
import type { Tool, EmbeddedImage, RequestScope } from '../../tools/tool';
import { admissionOf, scopeOf } from '../http/request-scope';
import { unrecordedTraceOf } from '../http/request-trace';
import type { RateLimits } from '../rate-limit';
import { noteAdmitted } from '../settled-cost';
import type { ApiError } from '../../kernel/errors';
import { admit, afterTheDoor, BATCH_REFUSED, DOOR_POINT, messageCost } from './admission';
import { appsSessionId, inAppsSession, opensAppsSession } from './apps-session';
import { answerFastToolCall, fastToolCall } from './fast-tool-call';
import { originAndHostGuard } from './origin-guard';
import { PreparedAnswers, preparedRequest, type WireAnswer } from './prepared-answers';
import { invalidParamsError, isJSONRPCMessage, requestId } from './request-params';
import { createMcpServer } from './server';
import { traceMessage } from './message-trace';
import { noteRequest, requestTrace } from '../../kernel/tracing';
import type { ToolServerContext } from './tool-call';

export const MCP_PATH = '/mcp/public';

/** The request being served and its admission (null, or the rate-limit refusal its tool call answers). */
type Admitted = [RequestScope, ApiError | null];

/** Hop-by-hop or recomputed headers of the SDK's answer that Koa writes itself. */
const NOT_COPIED = new Set(['connection', 'content-length', 'transfer-encoding']);

/** A JSON-RPC error's code on the request's spans (its `error.type`, as OpenTelemetry's MCP conventions name it). */
function noteRpcError(code: number): void {
  noteRequest({ 'error.type': String(code), 'rpc.response.status_code': String(code) });
}

/**
 * The code of the JSON-RPC error an answer carries (JSON, or the one message of a 2025 event stream), or
 * undefined. A result (most answers, some of them large) is passed over by a search of its bytes, not decoded.
 */
function rpcErrorCode(bytes: Buffer): number | undefined {
  if (bytes.indexOf('"error"') < 0) return undefined;
  const text = bytes.toString('utf8');
  const json = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  if (json === undefined) return undefined;
  try {
    const code = (JSON.parse(json) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}

function jsonRpcError(ctx: Context, status: number, code: number, message: string, id: string | number | null = null): void {
  noteRpcError(code);
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', id, error: { code, message } };
}

export function mountMcp(router: Router, tools: readonly Tool[], deps: Deps, limits: RateLimits, photos: PhotoStore): void {
  const notAllowed = (ctx: Context): void => {
    ctx.set('Allow', 'POST');
    jsonRpcError(ctx, 405, -32000, 'Method not allowed: this stateless server answers POST only.');
  };
  router.get(MCP_PATH, notAllowed);
  router.delete(MCP_PATH, notAllowed);
  router.put(MCP_PATH, notAllowed);
  router.patch(MCP_PATH, notAllowed);

  const loadImages = async (images: EmbeddedImage[]) => {
    const out = [];
    for (const img of images) {
      const jpeg = await photos.embedded(img.photoId);
      if (jpeg) out.push({ type: 'image' as const, data: jpeg.toString('base64'), mimeType: 'image/jpeg', _meta: img.meta });
    }
    return out;
  };
  const context: ToolServerContext = { tools, deps, limits, loadImages };
  // The SDK hands its factory the Request it serves (on both eras): the request's scope (client key,
  // signal) and its admission are found by it.
  const admitted = new WeakMap<Request, Admitted>();
  const handler = createMcpHandler(
    ({ era, requestInfo }) => {
      const found = requestInfo ? admitted.get(requestInfo) : undefined;
      if (!requestInfo || !found) throw new Error('the tool server was built outside a request');
      const [scope, refusal] = found;
      noteRequest({ 'catalog.mcp.era': era === 'modern' ? 'mcp-2026' : 'mcp-2025' });
      if (era === 'modern') return createMcpServer(context, { ...scope, transport: 'mcp-2026' }, refusal);
      // A 2025 host of widgets said so at initialize; its session id carries it (./apps-session.ts).
      const host = inAppsSession(requestInfo.headers) ? { rendersWidgets: true } : {};
      return createMcpServer(context, { ...scope, ...host, transport: 'mcp-2025' }, refusal);
    },
    { onerror: (err) => deps.log.debug({ err }, 'tool server refused a request') },
  );
  const toolNames = new Set(tools.map((t) => t.name));
  const isTool = (name: string): boolean => toolNames.has(name);
  const prepared = new PreparedAnswers();
  const policy = { allowedOrigins: deps.config.mcpAllowedOrigins, publicBaseUrl: deps.config.publicBaseUrl, listenHost: deps.config.host };
  const guard = originAndHostGuard(policy);

  /** The SDK's answer to one message of this request, its body read whole (no tool streams anything). */
  async function sdkAnswer(request: Request, message: unknown, entry: Admitted): Promise<WireAnswer> {
    admitted.set(request, entry);
    return wireAnswer(await handler.fetch(request, { parsedBody: message }));
  }

  router.post(MCP_PATH, async (ctx) => {
    // The message's first point, before its body is even read: what is refused here costs nothing more
    // (invalid JSON, batches and refused origins are counted too).
    const scope = scopeOf(ctx, 'mcp-2025');
    const door = await admit(limits, scope.clientKey, DOOR_POINT);
    if (door) {
      ctx.set(door.headers);
      return jsonRpcError(ctx, 429, -32000, door.message);
    }
    let body: unknown;
    try {
      // The declared length too: a body declared past the limit is refused before a byte of it is read.
      const raw = await getRawBody(ctx.req, { limit: deps.config.bodyLimitBytes, length: ctx.get('Content-Length') || undefined, encoding: 'utf8' });
      body = JSON.parse(raw);
    } catch (err) {
      const tooLarge = (err as { type?: string }).type === 'entity.too.large';
      return tooLarge
        ? jsonRpcError(ctx, 413, -32600, `Request body over ${deps.config.bodyLimitBytes} bytes.`)
        : jsonRpcError(ctx, 400, -32700, 'Parse error: the body is not valid JSON.');
    }
    const verdict = guard(ctx.get('Origin') || undefined, ctx.get('Host') || undefined);
    if (!verdict.allowed) return jsonRpcError(ctx, 403, -32000, verdict.reason, requestId(body));
    if (Array.isArray(body)) return jsonRpcError(ctx, 400, -32600, BATCH_REFUSED);
    await traceMessage(body, ctx.get('Mcp-Protocol-Version'), isTool, () => serveMessage(ctx, scope, body), unrecordedTraceOf(ctx.req));
  });

  /** One JSON-RPC message, admitted at the door, parsed and let through the guards. */
  async function serveMessage(ctx: Context, scope: RequestScope, body: unknown): Promise<void> {
    // The rest of its weight once the message is known, before anything else runs; a refused tool call
    // is still answered as a tool result (the model reads when to retry), any other refused message as
    // a JSON-RPC error with 429.
    const cost = messageCost(body, tools);
    const refusal = await admit(limits, scope.clientKey, afterTheDoor(cost));
    if (refusal && !cost.tool) {
      ctx.set(refusal.headers);
      return jsonRpcError(ctx, 429, -32000, refusal.message, requestId(body));
    }
    // Admitted at 1 before its body was read: it now holds its tool's weight of the copy (or is shed).
    if (!refusal) {
      admissionOf(ctx).grow(cost.points - 1);
      // A tool call's answer is settled on its bytes; the other messages' answers are the same for everyone.
      if (cost.tool) noteAdmitted(ctx, { clientKey: scope.clientKey, bucket: cost.bucket, points: cost.points });
    }

    // Params that do not fit their method are the client's fault: -32602 in one line on both eras (the
    // SDK answers some with its validator's dump, some as -32603). 2026-07-28 has no `initialize` (the
    // SDK refuses it): only there does the era change the check.
    const request = (): Request => webRequest(ctx, scope.signal);
    const message = isJSONRPCMessage(body) ? body : null;
    const modernInitialize = message !== null && 'method' in message && message.method === 'initialize' && !(await isLegacyRequest(request(), body));
    const invalid = message ? invalidParamsError(message, modernInitialize ? 'modern' : 'legacy') : null;
    if (invalid) {
      if ('error' in invalid) noteRpcError(invalid.error.code);
      ctx.status = 200;
      ctx.body = invalid;
      return;
    }
    const fast = deps.config.mcpFastToolCalls ? fastToolCall(body, ctx.headers, context) : null;
    if (fast) {
      noteRequest({ 'catalog.mcp.era': fast.era === 'modern' ? 'mcp-2026' : 'mcp-2025' });
      return send(ctx, await answerFastToolCall(fast, context, scope, refusal), body);
    }
    const same = deps.config.mcpFastToolCalls ? preparedRequest(body, ctx.headers) : null;
    const entry: Admitted = [scope, refusal];
    const buffered = same ? await prepared.answer(same, (preparing) => sdkAnswer(request(), preparing, entry)) : null;
    const answer = buffered ?? (await sdkAnswer(request(), body, entry));
    // A 2025 host of widgets is told so on each later request by the session id it is given here.
    const opened = !modernInitialize && answer.status === 200 && opensAppsSession(body);
    send(ctx, opened ? { ...answer, headers: { ...answer.headers, 'mcp-session-id': appsSessionId() } } : answer, body);
  }
}

/** The SDK's Response as status, headers and bytes. */
async function wireAnswer(response: Response): Promise<WireAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NOT_COPIED.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** The answer's bytes as they are (no decode and encode again); an error names the request's id. */
function send(ctx: Context, answer: WireAnswer, body: unknown): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  if (/^text\/event-stream\b/i.test(answer.headers['content-type'] ?? '')) {
    // The SDK's 2025 answer, an event stream of one message, read whole: a complete body like JSON, so
    // compressed like it (no event is held back), and no longer marked no-transform.
    ctx.compress = true;
    ctx.set('Cache-Control', 'no-cache');
  }
  const bytes = answer.status >= 400 ? withRequestId(answer.body, body) : answer.body;
  // Under a sampled trace, a JSON-RPC error the SDK answered (an unknown tool or method, params it refused) names its code.
  if (requestTrace() !== undefined) {
    const code = rpcErrorCode(bytes);
    if (code !== undefined) noteRpcError(code);
  }
  // A notification's 202 has no body at all (Koa would otherwise write the status text).
  ctx.body = bytes.length > 0 ? bytes : '';
  if (bytes.length === 0 && answer.headers['content-type'] === undefined) ctx.remove('Content-Type');
}

/**
 * An HTTP-level refusal of the SDK's (406 Accept, 415 Content-Type, an unsupported version header)
 * names no id even when the body had one: every error carries the request's id (MCP 2026-07-28).
 */
function withRequestId(bytes: Buffer, body: unknown): Buffer {
  const id = requestId(body);
  if (id === null || bytes.length === 0) return bytes;
  try {
    const answer = JSON.parse(bytes.toString('utf8')) as { id?: unknown; error?: unknown };
    // An error without an id names the request's (the SDK writes `null`, or no id at all).
    if (answer.error === undefined || (answer.id !== null && answer.id !== undefined)) return bytes;
    return Buffer.from(JSON.stringify({ ...answer, id }));
  } catch {
    return bytes;
  }
}

/**
 * The request as the SDK reads it: method, URL, headers and the signal of its deadline (the body is
 * passed parsed). Built only for what goes to the SDK: the door, the guards, the fast tool call and
 * the prepared answers read Koa's request.
 */
function webRequest(ctx: Context, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://${ctx.host || 'localhost'}${ctx.originalUrl}`, { method: ctx.method, headers, signal });
}
