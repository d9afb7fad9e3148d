/** `npm run worker`: the indexer process, on its node-cron schedule (see schedule.ts). */
import { loadConfig } from '../services/kernel/config';
import { createLogger } from '../services/kernel/logger';
import { createEsClient } from '../services/kernel/store/es-client';
import { connectMongo } from '../services/kernel/store/mongo';
import { startSchedule } from './schedule';
import { openWatchMatcher } from '../services/watch-matcher';
import { startTracing } from '../services/kernel/tracing-sdk';

async function main(): Promise<void> {
  const config = loadConfig();
  // With an OTLP endpoint set, each run is a trace (indexer/runner.ts); before the clients, so their calls are its spans.
  const tracing = startTracing('furnished-catalog-indexer');
  const log = createLogger(config.logLevel, 'indexer');
  const es = createEsClient(config.esUrl);
  // A worker started while MongoDB is away (a restart during an outage) waits for it rather than exiting.
  const mongo = await untilConnected(
    () => connectMongo(config.mongoUrl, config.mongoDb),
    (err) => log.warn({ err: (err as Error).message }, 'MongoDB does not answer yet; trying again in 2 s'),
  );
  // The watches are matched by the worker that indexed the change, under its lease (services/watch-matcher.ts).
  const watches = await openWatchMatcher(config, log);
  const schedule = startSchedule(es, mongo.collections, config, log, {
    onWriting: (ids, written, indexed) => watches.onWriting(ids, written, indexed),
    // A webhook that cannot be sent now is retried at a later run; it never fails the run.
    afterIncremental: () => watches.sendDue().catch((err: unknown) => log.warn({ err: (err as Error).message }, 'webhooks not sent; retrying at the next run')),
  });
  await schedule.runNow('incremental');
  const stop = async (): Promise<void> => {
    await schedule.stop();
    await watches.close();
    await mongo.close();
    await es.close();
    await tracing.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

async function untilConnected<T>(connect: () => Promise<T>, onRetry: (err: unknown) => void): Promise<T> {
  for (;;) {
    try {
      return await connect();
    } catch (err) {
      onRetry(err);
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`indexer worker failed to start: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
