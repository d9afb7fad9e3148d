/**
 * The admin port (ADMIN_HOST:ADMIN_PORT, loopback by default): what operators and Prometheus read and
 * the public must not. GET /metrics (the Node version, memory, the indexer's state), GET /status (the
 * whole health report: alias, live index, documents, the indexer's last runs), and /livez and /readyz
 * for orchestrators that probe here. Never rate limited: it is not reachable from outside.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from './deps';
import { errorMiddleware } from './transports/http/errors';
import { liveness } from './transports/http/health';
import { statusReport } from './transports/http/status';
import type { Readiness } from './transports/http/readiness-cache';

export function createAdminApp(deps: Deps, readiness: Readiness): Koa {
  const app = new Koa();
  const router = new Router();
  app.use(errorMiddleware(deps.log));
  app.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await deps.metrics.scrape();
    ctx.type = contentType;
    ctx.body = body;
  });
  router.get('/status', async (ctx) => {
    ctx.body = await statusReport(deps);
  });
  router.get('/livez', (ctx) => {
    ctx.body = liveness();
  });
  router.get('/readyz', async (ctx) => {
    ctx.body = await readiness();
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
