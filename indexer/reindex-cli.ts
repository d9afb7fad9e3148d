/**
 * `npm run reindex [-- --full [--for-version]]`: one indexer run with a progress bar and a closing summary.
 * `--full --for-version` prepares this build's mapping version ahead of its deploy: a full rebuild under
 * the version's own alias only (docs/operations.md, "Deploying a mapping change"); the aliases running
 * copies read stay as they are. Exits non-zero when any document was dropped (the old alias keeps serving).
 */
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig } from '../services/kernel/config';
import { createEsClient } from '../services/kernel/store/es-client';
import { connectMongo } from '../services/kernel/store/mongo';
import { runIndexerJob } from './runner';
import { describeCompaction, type CompactionOutcome } from './compaction';
import { NoIndexYetError } from './incremental';
import { ownAlias } from './es-admin';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--full' && a !== '--incremental' && a !== '--for-version');
  const prepare = args.includes('--for-version');
  if (unknown.length > 0 || (prepare && !args.includes('--full'))) {
    process.stderr.write(`usage: npm run reindex [-- --full [--for-version] | --incremental]  (unknown: ${unknown.join(' ') || 'none'})\n`);
    return 2;
  }
  const config = loadConfig();
  const es = createEsClient(config.esUrl);
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  const kind = args.includes('--full') ? 'full' : 'incremental';
  const bar = new SingleBar({ format: `${kind} reindex [{bar}] {percentage}% | {value}/{total} homes | {eta}s left` }, Presets.shades_classic);
  let started = false;
  try {
    let merge: Promise<CompactionOutcome> | undefined;
    const run = await runIndexerJob(kind, es, mongo.collections, config, {
      prepare,
      onCompaction: (m) => {
        merge = m;
      },
      onProgress: (done, total) => {
        if (!started) {
          bar.start(total, 0);
          started = true;
        }
        bar.update(done);
      },
    }).catch(async (err: unknown) => {
      if (err instanceof NoIndexYetError && kind === 'incremental') {
        process.stdout.write('No index yet: running a full rebuild instead.\n');
        return runIndexerJob('full', es, mongo.collections, config);
      }
      throw err;
    });
    if (started) bar.stop();
    const seconds = run.duration_ms / 1000;
    const rate = seconds > 0 ? Math.round(run.documents / seconds) : run.documents;
    process.stdout.write(
      (run.skipped > 0 ? `warning: ${run.skipped} home(s) skipped, e.g. ${run.skipped_examples.join('; ')}\n` : '') +
        `${run.kind} reindex done: ${run.documents} documents indexed, ${run.deleted} removed, ${run.skipped} skipped, ` +
        `${seconds.toFixed(1)} s, ${rate} documents/s; alias ${prepare ? ownAlias(config.homesAlias) : config.homesAlias} -> ${run.alias_target}\n`,
    );
    if (merge) {
      // The run's segments merged back (indexer/compaction.ts): waited for here, so the command ends with the index tidy.
      const t0 = Date.now();
      const outcome = await merge;
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      process.stdout.write(`${typeof outcome === 'object' ? 'warning: ' : ''}${describeCompaction(outcome)} (${seconds} s after the run)\n`);
    }
    return 0;
  } catch (err) {
    if (started) bar.stop();
    process.stderr.write(`reindex failed: ${(err as Error).message}\nThe alias ${config.homesAlias} was left as it was.\n`);
    return 1;
  } finally {
    await mongo.close();
    await es.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`reindex failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
