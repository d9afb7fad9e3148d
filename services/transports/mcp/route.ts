/**
 * POST /mcp/public on Koa: the official SDK's Streamable HTTP transport in stateless mode, a
 * fresh server and transport per request (MCP.md). GET and DELETE answer 405; the body size is
 * capped here (the transport has no limit); Origin is checked when present.
 */
import type Router from '@koa/router';
import getRawBody from 'raw-body';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'koa';
import type { Deps } from '../../deps';
import type { PhotoStore } from '../../media/photos';
import type { AnyTool } from '../../tools/tool';
import type { Validators } from '../../tools/validate';
import type { RateLimits } from '../rate-limit';
import { createMcpServer } from './server';
import { invalidParamsError } from './request-params';

export const MCP_PATH = '/mcp/public';

function jsonRpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', id: null, error: { code, message } };
}

export function originAllowed(origin: string | undefined, allowed: string[], publicBaseUrl: string): boolean {
  if (!origin) return true; // server-to-server clients send no Origin
  if (allowed.includes('*')) return true;
  const own = new URL(publicBaseUrl).origin;
  return origin === own || allowed.includes(origin);
}

export function mountMcp(
  router: Router,
  tools: readonly AnyTool[],
  validators: Validators,
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

  const loadImages = async (images: { photoId: string; meta: Record<string, unknown> }[]) => {
    const out = [];
    for (const img of images) {
      const jpeg = await photos.embedded(img.photoId);
      if (jpeg) out.push({ type: 'image' as const, data: jpeg.toString('base64'), mimeType: 'image/jpeg', _meta: img.meta });
    }
    return out;
  };

  router.post(MCP_PATH, async (ctx) => {
    if (!originAllowed(ctx.get('Origin') || undefined, deps.config.mcpAllowedOrigins, deps.config.publicBaseUrl)) {
      return jsonRpcError(ctx, 403, -32000, 'Origin not allowed.');
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
    const server = createMcpServer(tools, validators, deps, limits, ctx.ip, loadImages);
    // The SDK's web-standard transport, answered through Koa: its Node wrapper converts every
    // response through a Web stream (a fifth of a tool call's CPU); JSON mode needs none of that.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const refused = invalidParamsError(message);
      if (refused) void transport.send(refused);
      else deliver?.(message, extra);
    };
    let response: Response;
    try {
      response = await transport.handleRequest(webRequest(ctx), { parsedBody: body });
    } catch (err) {
      // Stops whatever the request left running; a request that answered left nothing (JSON mode keeps no
      // stream, timer or pending handler once its answer is out), so it is not closed: closing builds an
      // McpError with a stack trace for every request, a tenth of a small tool call's CPU.
      await server.close();
      throw err;
    }
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
    // The answer's bytes as the transport encoded them: no decode to a string and encode again.
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > 0) ctx.body = bytes;
  });
}

/**
 * The request as the transport reads it: its method, URL and headers (the body is passed parsed, so
 * the transport never reads it). A `Request` proper costs an AbortSignal and the Fetch spec's checks
 * on every call, work this answer does not use: the transport gets these three fields only. The
 * tool-server tests run every transport path (JSON-RPC errors, batches, notifications) through it.
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
