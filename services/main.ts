/** `npm run serve`: the Koa service (stateless; run as many copies as you like). */
import { answerClientError } from './transports/http/client-error';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createApp } from './app';
import { createAdminApp } from './admin-app';
import { TOOLS } from './tools/registry';
import { sharedReadiness, sharedStatus } from './transports/http/readiness-cache';
import { loadConfig, type Config } from './kernel/config';
import type { Deps } from './deps';
import { openDeps } from './service-deps';
import { createLogger, type DestinationStream } from './kernel/logger';
import { keepBundlesIn } from './kernel/browser-bundle';
import { ensurePolicies } from './policies/store';
import { ensureIndexes } from './kernel/store/collections';
import { connectMongo } from './kernel/store/mongo';
import { widgetDocuments } from './widgets/bundle';
import { startTracing } from './kernel/tracing-sdk';
import { readingVersion } from './kernel/store/mapping-version';
import { BUILD_MAPPING_VERSION } from './build-version';
import { startReaderHeartbeat } from './kernel/store/index-readers';

/** Koa's handler settles its own promise (an error goes to the app's error handler): Node's server needs no more than a call. */
function listener(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener {
  return (req, res) => void handle(req, res);
}

export interface RunningService {
  server: Server;
  deps: Deps;
  url: string;
  /** The admin port's base URL (GET /metrics, GET /status). */
  adminUrl: string;
  close(): Promise<void>;
}

export async function startService(given: Config = loadConfig(), opts: { logDestination?: DestinationStream } = {}): Promise<RunningService> {
  // Every read is of this version's alias (docs/decisions.md, "Versioned aliases").
  const config = readingVersion(given, BUILD_MAPPING_VERSION);
  // Before the stores' clients: with an OTLP endpoint set, their calls are spans of the request that made them.
  const tracing = startTracing('furnished-catalog');
  const log = createLogger(config.logLevel, 'service', opts.logDestination);
  // Start-up may wait for the stores; requests may not (STORE_DEADLINE_MS).
  const setup = await connectMongo(config.mongoUrl, config.mongoDb);
  try {
    await ensureIndexes(setup.collections, { bookingIntentRetentionDays: config.bookingIntents.retentionDays });
    await ensurePolicies(setup.collections, new Date());
  } finally {
    await setup.close();
  }
  // The widget documents are bundled now, so a broken build stops the start rather than a later read.
  keepBundlesIn(config.browserBundleCache);
  await widgetDocuments();
  const { deps, esNodes, es, mongo } = await openDeps(config, log);
  // The indexer keeps this version's index while the record says a copy reads it (kernel/store/index-readers.ts).
  const reading = await startReaderHeartbeat(
    mongo.collections.indexerState,
    { alias: config.homesAlias, mappingVersion: BUILD_MAPPING_VERSION, host: config.indexerHost },
    { onError: (err) => log.warn({ err, store: 'mongodb' }, 'could not renew the record of the index this copy reads') },
  );
  if (config.requestState.generated) {
    log.warn(
      'REQUEST_STATE_SECRETS is not set: a random key signs the guest confirmations of this copy only; set it (the same on every copy) when running more than one',
    );
  }
  await deps.routingKeys.warm();
  // One readiness check and one status report a second for both ports together.
  const ready = sharedReadiness(deps);
  const status = sharedStatus(deps);
  const app = createApp(deps, TOOLS, ready, status);
  app.on('error', (err: unknown) => log.error({ err }, 'unhandled app error'));
  // Node's own bounds, for a copy exposed directly: a slow client cannot hold a connection for the
  // default 300 s (its timers are checked every second, not every 30), and a flood of connections is
  // refused past the cap instead of exhausting memory.
  const bounds = { headersTimeout: config.headersTimeoutMs, requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: 1_000 };
  const server = createServer(bounds, listener(app.callback()));
  server.maxConnections = config.maxConnections;
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  await listen(server, config.port, config.host);
  // The admin port has the same bounds: it is private, not trusted to be.
  const adminServer = createServer(bounds, listener(createAdminApp(deps, ready, status).callback()));
  adminServer.maxConnections = 64;
  adminServer.on('clientError', answerClientError);
  const admin = await listen(adminServer, config.adminPort, config.adminHost);
  const url = `http://127.0.0.1:${portOf(server, config.port)}`;
  const adminUrl = `http://${config.adminHost.includes(':') ? `[${config.adminHost}]` : config.adminHost}:${portOf(admin, config.adminPort)}`;
  log.info(
    { trustedProxies: config.trustedProxies },
    config.trustedProxies.length > 0
      ? 'client addresses: X-Forwarded-For is believed only from the peers in TRUSTED_PROXIES'
      : "client addresses: the peer's own (TRUSTED_PROXIES is empty, so X-Forwarded-For is ignored)",
  );
  log.info({ url, adminUrl, publicBaseUrl: config.publicBaseUrl }, 'catalog service listening');
  return {
    server,
    deps,
    url,
    adminUrl,
    async close() {
      await new Promise<void>((resolve) => admin.close(() => resolve()));
      // Graceful: stop accepting, let in-flight requests finish (up to 5 s), then close the stores.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)))]);
      clearTimeout(timer);
      server.closeAllConnections();
      await closed;
      esNodes.close();
      await reading.stop().catch((err: unknown) => log.warn({ err }, 'could not delete the record of the index this copy reads'));
      await mongo.close();
      await es.close();
      await tracing.stop();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function portOf(server: Server, fallback: number): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : fallback;
}

/**
 * Runs the service as `npm run serve` does, stopped gracefully by SIGTERM or SIGINT; `started` is told
 * once it listens (the traces bench's switched copy answers its commands from then on).
 */
export function serveUntilStopped(started: (svc: RunningService) => void = () => undefined): void {
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`unhandled rejection: ${String((reason as Error)?.stack ?? reason)}\n`);
  });
  startService().then(
    (svc) => {
      started(svc);
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

if (require.main === module) serveUntilStopped();
