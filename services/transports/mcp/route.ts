/**
 * POST /mcp/public on Koa, both protocol eras on one endpoint (docs/decisions.md "Two
 * protocol eras"): a request that carries the 2026-07-28 `_meta` envelope goes to the SDK v2 entry
 * (`createMcpHandler`: envelope, headers, discover, caching hints, input-required results); every other
 * request is 2025-11-25 / 2025-06-18 and goes to a per-request stateless transport answering JSON, as
 * before. Both build the same server (./server.ts). GET, DELETE, PUT and PATCH answer 405; the body is
 * capped here; Origin and Host are checked before anything runs (./origin-guard.ts). The plainest tool
 * calls skip the SDK's per-request machinery (./fast-tool-call.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type Router from '@koa/router';
import getRawBody from 'raw-body';
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Context } from 'koa';
import type { Deps } from '../../deps';
import type { PhotoStore } from '../../media/photos';
import type { Tool, EmbeddedImage, RequestScope } from '../../tools/tool';
import { admissionOf, scopeOf } from '../http/request-scope';
import type { RateLimits } from '../rate-limit';
import type { ApiError } from '../../kernel/errors';
import { admit, afterTheDoor, BATCH_REFUSED, DOOR_POINT, messageCost } from './admission';
import { checkOriginAndHost } from './origin-guard';
import { invalidParamsError, isJSONRPCMessage, requestId } from './request-params';
import { answerFastToolCall, fastToolCall } from './fast-tool-call';
import { PreparedAnswers, preparedRequest, type SdkAnswer } from './prepared-answers';
import { createMcpServer } from './server';
import type { ToolServerContext } from './tool-call';

export const MCP_PATH = '/mcp/public';

/** The request being served and its admission (null, or the rate-limit refusal its tool call answers). */
type Admitted = [RequestScope, ApiError | null];

/** The request being served: the SDK calls the server factory inside `requests.run`. */
function admittedIn(requests: AsyncLocalStorage<Admitted>): Admitted {
  const admitted = requests.getStore();
  if (!admitted) throw new Error('the tool server was built outside a request');
  return admitted;
}

function jsonRpcError(ctx: Context, status: number, code: number, message: string, id: string | number | null = null): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', id, error: { code, message } };
}

export function mountMcp(
  router: Router,
  tools: readonly Tool[],
  deps: Deps,
  limits: RateLimits,
  photos: PhotoStore,
): void {
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
  // The SDK's factory sees the request, not Koa's context: the request's scope (client key, signal) and
  // its admission ride along.
  const requests = new AsyncLocalStorage<Admitted>();
  const modern = createMcpHandler(() => createMcpServer(context, ...admittedIn(requests)), {
    // JSON unless a handler sends a notification first (none does); 'json' itself would warn at every start.
    legacy: 'reject',
    onerror: (err) => deps.log.debug({ err }, 'tool server refused a request'),
  });
  const prepared = new PreparedAnswers();
  const policy = { allowedOrigins: deps.config.mcpAllowedOrigins, publicBaseUrl: deps.config.publicBaseUrl, listenHost: deps.config.host };

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
      const raw = await getRawBody(ctx.req, { limit: deps.config.bodyLimitBytes, encoding: 'utf8' });
      body = JSON.parse(raw);
    } catch (err) {
      const tooLarge = (err as { type?: string }).type === 'entity.too.large';
      return tooLarge
        ? jsonRpcError(ctx, 413, -32600, `Request body over ${deps.config.bodyLimitBytes} bytes.`)
        : jsonRpcError(ctx, 400, -32700, 'Parse error: the body is not valid JSON.');
    }
    const verdict = checkOriginAndHost(ctx.get('Origin') || undefined, ctx.get('Host') || undefined, policy);
    if (!verdict.allowed) return jsonRpcError(ctx, 403, -32000, verdict.reason, requestId(body));
    if (Array.isArray(body)) return jsonRpcError(ctx, 400, -32600, BATCH_REFUSED);

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
    if (!refusal) admissionOf(ctx).grow(cost.points - 1);

    const fast = deps.config.mcpFastToolCalls ? fastToolCall(body, ctx.headers, context) : null;
    if (fast) {
      ctx.status = 200;
      ctx.body = await answerFastToolCall(fast, context, scope, refusal);
      ctx.set('Content-Type', 'application/json'); // as the SDK sends it (Koa's type would add a charset)
      return;
    }
    const request = webRequest(ctx);
    const viaSdk = (message: unknown): ReturnType<typeof sdkAnswer> => sdkAnswer(request, message, [scope, refusal]);
    const same = deps.config.mcpFastToolCalls ? preparedRequest(body, ctx.headers) : null;
    const buffered = same ? await prepared.answer(same, viaSdk) : null;
    if (buffered) {
      ctx.status = 200;
      ctx.body = buffered;
      ctx.set('Content-Type', 'application/json');
      return;
    }
    const answer = await viaSdk(body);
    ctx.status = answer.status;
    answer.headers.forEach((value, name) => ctx.set(name, value));
    // The answer's bytes as the SDK encoded them: no decode to a string and encode again. A notification's
    // 202 has no body at all (Koa would otherwise write the status text).
    const bytes = answer.status >= 400 ? withRequestId(answer.body, body) : answer.body;
    ctx.body = bytes.length > 0 ? bytes : '';
    if (bytes.length === 0 && !answer.headers.has('content-type')) ctx.remove('Content-Type');
  });

  /** The SDK's answer to one message, on the era the request speaks. */
  async function sdkAnswer(request: Request, body: unknown, admitted: Admitted): Promise<SdkAnswer & { headers: Headers }> {
    let response: Response;
    if (await isLegacyRequest(request, body)) {
      response = await serveLegacy(context, admitted, request, body);
    } else {
      // The SDK answers params that do not fit their method with its validator's dump (-32603 for some):
      // -32602 in one line, as on the 2025 path (request-params.ts).
      const refused = isJSONRPCMessage(body) ? invalidParamsError(body, 'modern') : null;
      if (refused) {
        // As Koa would send it: JSON with its charset.
        const type = 'application/json; charset=utf-8';
        return { status: 200, contentType: type, headers: new Headers({ 'content-type': type }), body: Buffer.from(JSON.stringify(refused)) };
      }
      const [scope, refusal] = admitted;
      response = await requests.run([{ ...scope, transport: 'mcp-2026' }, refusal], () => modern.fetch(request, { parsedBody: body }));
    }
    return { status: response.status, contentType: response.headers.get('content-type'), headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }
}

/**
 * An HTTP-level refusal of the SDK's (406 Accept, 415 Content-Type, an unsupported version header) names
 * no id even when the body had one: every error carries the request's id (MCP 2026-07-28).
 */
function withRequestId(bytes: Buffer, body: unknown): Buffer {
  const id = requestId(body);
  if (id === null || bytes.length === 0) return bytes;
  try {
    const answer = JSON.parse(bytes.toString('utf8')) as { id?: unknown; error?: unknown };
    if (answer.error === undefined || answer.id !== null) return bytes;
    return Buffer.from(JSON.stringify({ ...answer, id }));
  } catch {
    return bytes;
  }
}

/**
 * A 2025-era request: a fresh server and a stateless transport in JSON mode (a fifth of a small call's
 * CPU went to the Node wrapper's Web streams; JSON mode needs none). A request that answered left
 * nothing running, so it is not closed (closing builds an error with a stack trace per call).
 */
async function serveLegacy(context: ToolServerContext, admitted: Admitted, request: Request, body: unknown): Promise<Response> {
  const server = createMcpServer(context, ...admitted);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refused = invalidParamsError(message);
    if (refused) void transport.send(refused);
    else deliver?.(message, extra);
  };
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } catch (err) {
    await server.close();
    throw err;
  }
}

/**
 * The request as the SDK reads it: its method, URL and headers (the body is passed parsed, so it is
 * never read). A `Request` proper costs an AbortSignal and the Fetch spec's checks on every call, work
 * this answer does not use. The tool-server tests run every transport path through it.
 */
type TransportRequest = Pick<Request, 'method' | 'url' | 'headers'>;

function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const request: TransportRequest = { method: ctx.method, url: `http://${ctx.host || 'localhost'}${ctx.originalUrl}`, headers };
  return request as Request;
}
