/**
 * `npm run import -- file.ndjson`: imports canonical records (see indexer/import-records.ts).
 * Valid lines are upserted by `_id` with a fresh `updated_at`, so the next incremental index run
 * picks them up; bad lines are reported with their number and reason. Exit 1 when any line failed.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadConfig } from '../services/kernel/config';
import { connectMongo } from '../services/kernel/store/mongo';
import { ensureIndexes } from '../services/kernel/store/collections';
import { importLines, type ImportSummary } from './import-run';
import { startTracing } from '../services/kernel/tracing-sdk';
import { runSpan } from '../services/kernel/tracing';

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    process.stderr.write('usage: npm run import -- file.ndjson\n');
    return 2;
  }
  const config = loadConfig();
  // With an OTLP endpoint set, the import is a trace of its own; the indexer run that applies it links to it.
  const tracing = startTracing('furnished-catalog-import');
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  try {
    await ensureIndexes(mongo.collections);
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    const summary: ImportSummary = await runSpan('inventory import', {}, async (span) => {
      const done = await importLines(mongo.collections, lines);
      span?.setAttributes({ 'catalog.import.homes': done.imported.home, 'catalog.import.rejected': done.errors.length });
      return done;
    });
    for (const e of summary.errors) process.stderr.write(`line ${e.line}: ${e.reason}\n`);
    process.stdout.write(
      `imported ${summary.imported.market} markets, ${summary.imported.property} buildings, ${summary.imported.home} homes; ` +
        `${summary.errors.length} line(s) rejected. Run \`npm run reindex\` to publish the changes.\n`,
    );
    return summary.errors.length > 0 ? 1 : 0;
  } finally {
    await mongo.close();
    await tracing.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`import failed: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
