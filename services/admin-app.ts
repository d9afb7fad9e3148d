/**
 * The admin port (ADMIN_HOST:ADMIN_PORT, loopback by default): what operators and Prometheus read and
 * the public must not. GET /metrics (the Node version, memory, the indexer's state), GET /status (the
 * whole health report: alias, live index, documents, the indexer's last runs), and /livez and /readyz
 * for orchestrators that probe here. Never rate limited: it is not reachable from outside; a page in an
 * operator's browser could still reach it through a rebound DNS name, so a foreign `Host` is refused
 * (./transports/http/admin-host.ts) and the whole status is computed once a second whoever asks.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from './deps';
import { errorMiddleware } from './transports/http/errors';
import { liveness } from './transports/http/health';
import { adminHostGuard } from './transports/http/admin-host';
import { sharedStatus, type Readiness, type SharedStatus } from './transports/http/readiness-cache';

export function createAdminApp(deps: Deps, readiness: Readiness, status: SharedStatus = sharedStatus(deps)): Koa {
  const app = new Koa();
  const router = new Router();
  app.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  app.use(errorMiddleware(deps.log));
  app.use(adminHostGuard(deps.config.adminAllowedHosts));
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await deps.metrics.scrape();
    ctx.type = contentType;
    ctx.body = body;
  });
  router.get('/status', async (ctx) => {
    ctx.body = await status();
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
