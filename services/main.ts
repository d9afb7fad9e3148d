/** `npm run serve`: the Koa service (stateless; run as many copies as you like). */
import type { Server } from 'node:http';
import { createApp } from './app';
import { loadConfig, type Config } from './config';
import type { Deps } from './deps';
import { createLogger } from './logger';
import { ensurePolicies } from './policies/store';
import { createEsClient } from './search/es';
import { ensureIndexes } from './store/collections';
import { connectMongo } from './store/mongo';

export interface RunningService {
  server: Server;
  deps: Deps;
  url: string;
  close(): Promise<void>;
}

export async function startService(config: Config = loadConfig()): Promise<RunningService> {
  const log = createLogger(config.logLevel, 'service');
  const es = createEsClient(config.esUrl);
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  await ensureIndexes(mongo.collections);
  await ensurePolicies(mongo.collections, new Date());
  const deps: Deps = { config, es, mongo: mongo.collections, db: mongo.db, log, clock: () => new Date() };
  const app = createApp(deps);
  app.on('error', (err: unknown) => log.error({ err }, 'unhandled app error'));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://127.0.0.1:${port}`;
  log.info({ url, publicBaseUrl: config.publicBaseUrl }, 'catalog service listening');
  return {
    server,
    deps,
    url,
    async close() {
      // Graceful: stop accepting, let in-flight requests finish (up to 5 s), then close the stores.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)))]);
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
      await mongo.close();
      await es.close();
    },
  };
}

if (require.main === module) {
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`unhandled rejection: ${String((reason as Error)?.stack ?? reason)}\n`);
  });
  startService().then(
    (svc) => {
      const stop = (): void => void svc.close().then(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (err: unknown) => {
      process.stderr.write(`service failed to start: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
