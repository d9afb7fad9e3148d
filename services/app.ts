/**
 * The Koa application: the GET API under /api/public (open CORS), the tool server at
 * /mcp/public, the three derived documents, status and the photos the service serves.
 */
import Koa from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import type { Deps } from './deps';
import { ApiError } from './kernel/errors';
import { SERVER_CARD_PATH, serverCard, serverJson } from './docs/discovery';
import { openApiDocument } from './docs/openapi';
import { toolsMarkdown } from './docs/tools-markdown';
import { parseMediaFile, PhotoStore } from './media/photos';
import { HTTP_ROUTES, modelTools, TOOLS } from './tools/registry';
import type { Tool } from './tools/tool';
import { errorMiddleware } from './transports/http/errors';
import { fixedDocument, httpCaching, sendFixed } from './transports/http/caching';
import { compression } from './transports/http/compression';
import { keptEncodings } from './transports/http/kept-encodings';
import { securityHeaders } from './transports/http/security-headers';
import { reportStaticCompressions } from './transports/http/static-files';
import { getRoutes } from './transports/http/get-routes';
import { watchRoutes, WATCHES_PATH } from './transports/http/watch-routes';
import { watchSearchTool } from './tools/watch-search';
import { publicStatus } from './transports/http/status';
import { sharedReadiness, sharedStatus, type Readiness, type SharedStatus } from './transports/http/readiness-cache';
import { liveness } from './transports/http/health';
import { requestLog } from './transports/http/request-log';
import { requestTrace } from './transports/http/request-trace';
import { tracingOn } from './kernel/tracing';
import { mountMcp, MCP_PATH } from './transports/mcp/route';
import { CAPABILITIES } from './transports/mcp/server';
import { toolsList } from './transports/mcp/tool-list';
import { createRateLimits } from './transports/rate-limit';
import { noteAdmitted, settleCost } from './transports/settled-cost';
import { trustedProxies } from './transports/client-address';
import { requestBounds, scopeOf } from './transports/http/request-scope';
import { unreadBodies } from './transports/http/unread-body';
import { mountPage } from './web/routes';

/** What a browser MCP client sends: 2025's session and version headers, and 2026-07-28's Mcp-Method and Mcp-Name. */
/** The page, its files and the photos: bounded and counted like the API, in a bucket of their own. */
const isStaticPath = (path: string): boolean => path === '/' || path.startsWith('/app/') || path.startsWith('/media/');

const MCP_CORS_HEADERS = ['Content-Type', 'Accept', 'Authorization', 'Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Mcp-Session-Id', 'Last-Event-ID'];

export function createApp(
  deps: Deps,
  tools: readonly Tool[] = TOOLS,
  ready: Readiness = sharedReadiness(deps),
  report: SharedStatus = sharedStatus(deps),
): Koa {
  // The client's address comes from X-Forwarded-For only when a configured proxy sent it (request-scope.ts).
  const app = new Koa();
  // Counted in MongoDB, so every copy of the service shares one count per client.
  const limits = createRateLimits(deps.config.rateLimit, {
    store: deps.config.rateLimit.shared ? { client: deps.db.client, dbName: deps.db.databaseName } : undefined,
    onRefused: (bucket) => deps.metrics.rateLimitRefusals.inc({ bucket }),
    onStoreFailure: (err) => deps.log.debug({ err }, 'rate limits counted in memory: MongoDB did not answer in time'),
  });
  const photos = new PhotoStore(deps.mongo);
  reportStaticCompressions(deps.metrics.registry);
  // Each GET route's weight, its tool's cost, by route template under /api/public: the rate limit reads
  // it by the route the router matched, the bounds (before routing) by the path itself, which finds
  // the routes without parameters (the heavy ones: searches); the others (a file, a photo) weigh 1.
  const routed = [...tools, ...HTTP_ROUTES];
  const costOfRoute = new Map<string, number>(routed.flatMap((t) => (t.get ? [[t.get.path, t.cost ?? 1] as const] : [])));
  const PUBLIC = '/api/public';

  // With tracing on (an OTLP endpoint configured), one span per request around all the rest, shed requests too.
  // A request shed before routing is named by its path when the path is a route's exactly (a search, the tool server).
  const knownRoute = (path: string): string | undefined =>
    path === MCP_PATH ? MCP_PATH : path.startsWith(PUBLIC) && costOfRoute.has(path.slice(PUBLIC.length)) ? path : undefined;
  if (tracingOn()) app.use(requestTrace(knownRoute));
  // Outermost: whatever answers a request before its body was read, the body's rest does not stay on the connection.
  app.use(unreadBodies());
  // Then: a request the copy cannot take is shed before anything else runs for it (no log line: the
  // catalog_requests_bounded_total counter counts it), and the deadline covers all the rest.
  const trust = trustedProxies(deps.config.trustedProxies);
  const onBounded = (outcome: 'shed' | 'deadline' | 'client_gone'): void => deps.metrics.boundedRequests.inc({ outcome });
  app.use(
    requestBounds(
      { trust, deadlineMs: deps.config.requestDeadlineMs, maxInFlight: deps.config.maxInFlight, maxPerClient: deps.config.maxInFlightPerClient, onBounded },
      (path) => path.startsWith('/api/public') || path === MCP_PATH,
      // A GET of a search route holds its tool's weight; the tool server's message grows to its own once read.
      (ctx) => ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.path.startsWith(PUBLIC) ? (costOfRoute.get(ctx.path.slice(PUBLIC.length)) ?? 1) : 1),
    ),
  );
  // The page, its files and photos in a bound of their own: a browser asks for a page's photos while its
  // searches run, and a client's searches must not refuse them (docs/decisions.md, "Facing the open internet").
  app.use(
    requestBounds(
      {
        trust,
        deadlineMs: deps.config.requestDeadlineMs,
        maxInFlight: deps.config.maxInFlightStatic,
        maxPerClient: deps.config.maxInFlightStaticPerClient,
        onBounded,
      },
      isStaticPath,
    ),
  );
  app.use(requestLog(deps.log, deps.metrics));
  app.use(securityHeaders(deps.config));
  app.use(compression());
  // Outside the settlement: a kept answer's compressed bytes replace its identity bytes on the way out.
  app.use(keptEncodings());
  // Outside the JSON writer: an admitted request is settled on its answer's bytes as written and its searches' shard-ms (transports/settled-cost.ts).
  app.use(settleCost(limits, deps.config.rateLimit.esMsPerPoint));
  app.use(httpCaching(deps.config.httpCache));
  app.use(errorMiddleware(deps.log, (store) => deps.metrics.storeUnavailable.inc({ store })));
  app.use(
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: MCP_CORS_HEADERS,
      exposeHeaders: ['Mcp-Session-Id', 'Retry-After'],
      maxAge: 86400,
    }),
  );

  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/api/public')) {
      // The watches are the public API's only writes (POST saves one, DELETE ends one); their router answers a wrong method.
      const watches = ctx.path === `${PUBLIC}${WATCHES_PATH}` || ctx.path.startsWith(`${PUBLIC}${WATCHES_PATH}/`);
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !watches) {
        ctx.set('Allow', 'GET');
        throw new ApiError('method_not_allowed', 'The public API is read-only but for its watches: use GET.', 405);
      }
    }
    await next();
  });
  // A file or photo takes one point of the static bucket: a page load (the page, 4 files, 25 photos)
  // spends none of the API's budget, and a flood of them is refused like a flood of reads.
  app.use(async (ctx, next) => {
    if (isStaticPath(ctx.path)) await limits.consume(scopeOf(ctx, 'http').clientKey, 'static');
    await next();
  });

  // Paths match exactly (case and trailing slash), as the bounds and the rate limits read them.
  const api = new Router({ prefix: '/api/public', sensitive: true, strict: true });
  // Every GET of an endpoint counts against the client's default bucket, weighed as its tool is (the
  // overview is tool-server only). Inside the router, so a refusal is labelled with the route it
  // refused (metrics, access log).
  api.use(async (ctx, next) => {
    const routes = api.match(ctx.path, ctx.method).pathAndMethod.filter((layer) => layer.methods.length > 0);
    const template = routes[routes.length - 1]?.path;
    const route = typeof template === 'string' ? template.replace(/^\/api\/public/, '') : undefined;
    const clientKey = scopeOf(ctx, 'http').clientKey;
    const weight = route === undefined ? undefined : costOfRoute.get(route);
    const points = weight || 1;
    try {
      await limits.consume(clientKey, 'default', points);
      // A tool's answer is settled on its bytes; a fixed document (tools.json, openapi.json…) is written once at start.
      if (weight !== undefined) noteAdmitted(ctx, { clientKey, bucket: 'default', points });
    } catch (err) {
      // Only a refused request needs its route named here (the router names the others).
      ctx.state.routeTemplate = template;
      throw err;
    }
    await next();
  });
  api.get('/status', async (ctx) => {
    ctx.body = publicStatus(await report());
  });
  // The documents list the tools a model may call; a widget's own tool is the tool server's alone.
  const documented = modelTools(tools);
  const openapi = fixedDocument(openApiDocument([...documented, ...HTTP_ROUTES], deps.config.publicBaseUrl));
  const listed = fixedDocument(toolsList(documented));
  const markdown = fixedDocument(toolsMarkdown(documented), 'text/markdown; charset=utf-8');
  api.get('/openapi.json', (ctx) => {
    sendFixed(ctx, openapi);
  });
  api.get('/tools.json', (ctx) => {
    sendFixed(ctx, listed);
  });
  const registryEntry = fixedDocument(serverJson(deps.config.publicBaseUrl, MCP_PATH));
  api.get('/server.json', (ctx) => {
    sendFixed(ctx, registryEntry);
  });
  api.get('/tools', (ctx) => {
    sendFixed(ctx, markdown);
  });
  const routes = getRoutes(routed, deps);
  api.use(routes.routes());
  const watches = watchRoutes(deps, watchSearchTool);
  api.use(watches.routes());
  const wrongMethod = (): ApiError =>
    new ApiError('method_not_allowed', 'This method is not served here: a watch is saved with POST, read with GET, ended with DELETE.', 405);
  api.use(watches.allowedMethods({ throw: true, methodNotAllowed: wrongMethod, notImplemented: wrongMethod }));

  const root = new Router({ sensitive: true, strict: true });
  root.get('/media/:file', async (ctx) => {
    const parsed = parseMediaFile(ctx.params.file);
    const blob = parsed ? await photos.get(parsed.id) : null;
    if (!parsed || !blob) throw new ApiError('not_found', 'No such photo.', 404);
    ctx.type = 'image/jpeg';
    ctx.set('Cache-Control', 'public, max-age=86400, immutable');
    ctx.body = parsed.variant === 'widget' ? blob.widget : blob.full;
  });
  // For load balancers and orchestrators: outside /api/public, so never rate limited; readiness is
  // checked once a second whoever asks. /metrics and the whole health report are on the admin port.
  root.get('/livez', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = liveness();
  });
  root.get('/readyz', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await ready();
  });
  // The Server Card draft's location, and the older one with its .json suffix: readable from any
  // origin, cacheable for an hour.
  const card = fixedDocument(serverCard(deps.config.publicBaseUrl, MCP_PATH, CAPABILITIES));
  for (const path of [SERVER_CARD_PATH, `${SERVER_CARD_PATH}.json`]) {
    root.get(path, (ctx) => {
      ctx.set({
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Cache-Control': 'public, max-age=3600',
      });
      sendFixed(ctx, card);
    });
  }
  mountPage(root, deps.config, (ctx) => {
    ctx.body = {
      service: 'furnished-catalog',
      api: `${deps.config.publicBaseUrl}/api/public`,
      openapi: `${deps.config.publicBaseUrl}/api/public/openapi.json`,
      tools: `${deps.config.publicBaseUrl}/api/public/tools`,
      mcp: `${deps.config.publicBaseUrl}${MCP_PATH}`,
      server_card: `${deps.config.publicBaseUrl}${SERVER_CARD_PATH}`,
    };
  });
  mountMcp(root, tools, deps, limits, photos);

  app.use(api.routes());
  app.use(root.routes());
  app.use(root.allowedMethods());
  return app;
}
