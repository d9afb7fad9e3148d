/**
 * `npm run seed [-- --homes N --seed S --if-empty]`: writes the deterministic demo inventory into MongoDB
 * (3,000 homes by default; `--homes 100000` for the benchmark inventory). Idempotent. `--if-empty`
 * writes nothing when the database holds any home (the compose worker's first start).
 */
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig } from '../services/kernel/config';
import { todayIso } from '../services/kernel/engine/dates';
import { connectMongo } from '../services/kernel/store/mongo';
import { DEMO_HOMES, DEMO_SEED, seedDemoInventory } from './demo/demo-inventory';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      homes: { type: 'string', default: String(DEMO_HOMES) },
      seed: { type: 'string', default: String(DEMO_SEED) },
      'if-empty': { type: 'boolean', default: false },
    },
  });
  const homes = Number(values.homes);
  const seed = Number(values.seed);
  if (!Number.isInteger(homes) || homes < 1 || !Number.isInteger(seed)) {
    throw new Error('usage: npm run seed -- [--homes N] [--seed S]   (N >= 1, integers)');
  }
  const config = loadConfig();
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  if (values['if-empty'] && (await mongo.collections.homes.findOne({}, { projection: { _id: 1 } }))) {
    process.stdout.write(`${config.mongoDb} already holds homes: nothing seeded (--if-empty)\n`);
    await mongo.close();
    return;
  }
  const bar = new SingleBar({ format: 'seeding [{bar}] {value}/{total} homes' }, Presets.shades_classic);
  const started = Date.now();
  bar.start(homes, 0);
  try {
    const summary = await seedDemoInventory(mongo.collections, { seed, homes, today: todayIso(new Date()) }, (n) => bar.update(n));
    bar.stop();
    process.stdout.write(
      `seeded ${summary.markets} markets, ${summary.properties} buildings, ${summary.homes} homes, ${summary.photos} new photos ` +
        `into ${config.mongoDb} in ${((Date.now() - started) / 1000).toFixed(1)} s. Next: npm run reindex -- --full\n`,
    );
  } finally {
    bar.stop();
    await mongo.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`seed failed: ${(err as Error).message}\n`);
  process.exit(1);
});
