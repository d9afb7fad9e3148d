/**
 * `npm start`: the service on the local stack with the demo inventory. Seeds MongoDB when it has
 * no homes, builds the index when the alias is missing or was built on an earlier day, then
 * serves on PORT (3000) with the indexer schedule running in the same process.
 */
import { loadConfig } from '../services/kernel/config';
import { createLogger } from '../services/kernel/logger';
import { todayIso } from '../services/kernel/engine/dates';
import { startService } from '../services/main';
import { createEsClient } from '../services/kernel/store/es-client';
import { connectMongo } from '../services/kernel/store/mongo';
import { aliasMappingCurrent, ownAlias } from '../indexer/es-admin';
import { readFreshness } from '../services/kernel/store/index-freshness';
import { runIndexerJob } from '../indexer/runner';
import { adoptUnversioned } from '../indexer/index-versions';
import { startSchedule } from '../indexer/schedule';
import { matchWatchesFor } from '../services/tools/watch-matching-run';
import { sendDueWebhooks } from '../services/watches/webhook-sender';
import { DEMO_HOMES, DEMO_SEED, seedDemoInventory } from './demo/demo-inventory';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel, 'demo');
  const svc = await startService(config);
  // Seeding and indexing are batch work: their own clients, without the request path's deadline.
  const es = createEsClient(config.esUrl);
  const mongoHandle = await connectMongo(config.mongoUrl, config.mongoDb);
  const mongo = mongoHandle.collections;
  const today = todayIso(new Date());

  if ((await mongo.homes.estimatedDocumentCount()) === 0) {
    log.info({ homes: DEMO_HOMES }, 'no inventory yet: seeding the demo inventory');
    const summary = await seedDemoInventory(mongo, { seed: DEMO_SEED, homes: DEMO_HOMES, today });
    log.info({ summary }, 'demo inventory seeded');
  }
  const freshness = await readFreshness(mongo.indexerState);
  const builtOn = freshness.last_full_run ? todayIso(new Date(freshness.last_full_run.started_at)) : null;
  // An index built before versioned aliases gets its version's alias, not a rebuild (indexer/index-versions.ts).
  await adoptUnversioned(es, mongo.indexerState, config.homesAlias);
  // No index, one built on another day, or one built from another version of the mapping.
  if (builtOn !== today || !(await aliasMappingCurrent(es, ownAlias(config.homesAlias)))) {
    log.info('building the search index');
    const run = await runIndexerJob('full', es, mongo, config);
    log.info({ documents: run.documents, seconds: run.duration_ms / 1000, alias: run.alias_target }, 'search index built');
  }
  // The watches matched and their webhooks sent by this process's runs, with the service's own Deps.
  const schedule = startSchedule(es, mongo, config, log, {
    onWriting: async (ids, written, indexed) => {
      await matchWatchesFor(svc.deps, ids, new Date(), written, indexed);
      await sendDueWebhooks(svc.deps);
    },
    afterIncremental: () => sendDueWebhooks(svc.deps).then(() => undefined),
  });
  process.stdout.write(
    `\nCatalog service ready on ${config.publicBaseUrl}\n` +
      `  GET  ${config.publicBaseUrl}/api/public/markets\n` +
      `  GET  ${config.publicBaseUrl}/api/public/status\n` +
      `  MCP  ${config.publicBaseUrl}/mcp/public\n` +
      `  docs ${config.publicBaseUrl}/api/public/tools\n`,
  );
  const stop = async (): Promise<void> => {
    await schedule.stop();
    await svc.close();
    await mongoHandle.close();
    await es.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

process.on('unhandledRejection', (reason) => {
  process.stderr.write(`unhandled rejection: ${String((reason as Error)?.stack ?? reason)}\n`);
});

main().catch((err: unknown) => {
  process.stderr.write(`npm start failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
