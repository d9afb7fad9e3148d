/**
 * `npm run chaos [-- --minutes 5 --homes 3000 --connections 8 --keep]`: the fault run (docs/operations.md, "Scale-out").
 * Needs HAProxy (`apt-get install haproxy`), the stack's own needs (a JDK, Maven) and about 6 GB of memory.
 * A three-node Elasticsearch cluster and a Mongo-wire server of their own (test/chaos/chaos-stack.ts),
 * two service copies behind HAProxy (ops/haproxy.cfg), two indexer workers rebuilding every minute
 * under the lease, and a mixed load through the load balancer. One fault after another, each in a
 * slot of its own with recovery after it:
 *   1. an Elasticsearch node killed (SIGKILL), restarted after 15 s;
 *   2. an Elasticsearch node frozen (SIGSTOP) for 15 s, then resumed;
 *   3. a service copy killed (SIGKILL), restarted after 10 s;
 *   4. the worker holding the lease killed in the middle of a full rebuild; the other takes over;
 *   5. the Mongo-wire server stopped (SIGTERM) for 10 s and started again.
 * Writes chaos-report.md (and stdout): per fault, the requests, answers by status, failed reads, p99
 * and the time to recover; then the audit (test/chaos/audit.ts). Exits 1 when a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../services/kernel/config';
import { todayIso } from '../../services/kernel/engine/dates';
import { createEsClient } from '../../services/kernel/store/es-client';
import { connectMongo } from '../../services/kernel/store/mongo';
import { ensureIndexes } from '../../services/kernel/store/collections';
import { DEMO_SEED, seedDemoInventory } from '../../stack/demo/demo-inventory';
import { fullRebuild } from '../../indexer/full-rebuild';
import { aliasMappingCurrent, ownAlias } from '../../indexer/es-admin';
import { sampleInventory } from '../bench/sample';
import { fmt } from '../bench/load';
import { chaosStack } from './chaos-stack';
import { haproxy, serviceCopy, sleep, worker, type Managed } from './fleet';
import { startTraffic } from './traffic';
import { endOf, figures, type WindowFigures } from './answers';
import { audit } from './audit';

/** Tools whose answer needs MongoDB on the request path (fault 5 lets these, and only these, answer 503). */
const NEEDS_MONGO = new Set([
  'get_apartment_tool',
  'get_quote_tool',
  'get_flex_options_tool',
  'compare_apartments_tool',
  'get_market_info',
  'availability_overview_tool',
  // the building cards' records (services/buildings/building-records.ts, cached 30 s)
  'search_properties_tool',
]);

/** The target of faults 1, 2 and 4. */
const noFailedReads = (f: WindowFigures): string | null => (f.failedReads === 0 ? null : `${f.failedReads} failed reads (target 0)`);

interface Fault {
  title: string;
  /** Injects the fault, waits it out and undoes it; returns when the part is back, with notes. */
  act(mark: (what: string) => void): Promise<void>;
  /** The target this fault is held to, given its window's figures and the fault's marks. */
  target(f: WindowFigures, marks: Record<string, number>, fault: { from: number; answersAfter: (ms: number) => number }): string | null;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '5' },
      homes: { type: 'string', default: '3000' },
      connections: { type: 'string', default: '8' },
      keep: { type: 'boolean', default: false },
    },
  });
  const minutes = Number(values.minutes);
  const homes = Number(values.homes);
  const connections = Number(values.connections);
  if (!(minutes >= 2) || !Number.isInteger(homes) || homes < 100 || !Number.isInteger(connections) || connections < 1) {
    throw new Error('usage: npm run chaos -- [--minutes M (>= 2)] [--homes N (>= 100)] [--connections C] [--keep]');
  }
  const log = (line: string): void => void process.stdout.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

  log('starting the fault run stack (3 Elasticsearch nodes, a Mongo-wire server)');
  const stack = chaosStack({ nodes: 3, esPort: 9291, mongoPort: 27091 });
  const env: Record<string, string> = {
    ES_URL: stack.esUrl,
    MONGO_URL: stack.mongoUrl,
    MONGO_DB: 'catalog_chaos',
    HOMES_ALIAS: 'chaos-homes',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_POINTS: '1000000000',
    RATE_LIMIT_OVERVIEW_POINTS: '1000000000',
    RATE_LIMIT_STATIC_POINTS: '1000000000',
    TRUSTED_PROXIES: 'loopback',
    // The fault run measures faults, not load: its 8 connections may all reach one copy (fault 3)
    // with heavy searches, which the default bound would shed (the overload bench measures that).
    MAX_IN_FLIGHT: '64',
    MAX_IN_FLIGHT_PER_CLIENT: '64',
    // Its booking writes all come from one address (this machine, through HAProxy): not its budget's test.
    BOOKING_INTENT_ADDRESS_POINTS: '1000000000',
    BOOKING_INTENT_EMAIL_POINTS: '1000000000',
    INDEXER_INCREMENTAL_CRON: '* * * * *',
    // A full rebuild every other minute: fault 4 needs one under way, and a rebuild is also what a
    // killed Elasticsearch node or a stopped MongoDB may interrupt.
    INDEXER_FULL_CRON: '*/2 * * * *',
  };
  const config = loadConfig({ ...process.env, ...env });
  const es = createEsClient(config.esUrl);
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  const today = todayIso(new Date());
  await ensureIndexes(mongo.collections);
  if ((await mongo.collections.homes.estimatedDocumentCount()) !== homes) {
    log(`seeding ${homes} homes`);
    await mongo.db.dropDatabase();
    await ensureIndexes(mongo.collections);
    await seedDemoInventory(mongo.collections, { seed: DEMO_SEED, homes, today });
  }
  if (!(await aliasMappingCurrent(es, ownAlias(config.homesAlias)))) {
    log('first full build');
    await fullRebuild(es, mongo.collections, { alias: config.homesAlias, indexPrefix: config.homesIndexPrefix, replicas: config.indexReplicas });
  }

  const ports = [3191, 3192] as const;
  const copies = ports.map((p, i) => serviceCopy(`service copy ${i + 1}`, p, env));
  // Two hosts' names: a worker takes the lease over from the other only once it has run out, as
  // between machines (on one host it would see the holder's process gone and take it at once).
  const workers = [worker('worker 1', { ...env, INDEXER_HOST: 'chaos-host-1' }), worker('worker 2', { ...env, INDEXER_HOST: 'chaos-host-2' })];
  const lb = haproxy(8091, [ports[0], ports[1]], path.join(tmpdir(), `catalog-chaos-lb-${process.pid}.sock`));
  const everything: Managed[] = [...copies, ...workers, lb];
  const lines: string[] = [];
  const say = (line = ''): void => {
    lines.push(line);
    process.stdout.write(line + '\n');
  };
  let failedTargets = 0;
  try {
    for (const c of copies) await c.start();
    await lb.start();
    for (const w of workers) await w.start();
    log('two copies behind HAProxy, two workers; load starts');

    const startedAt = Date.now();
    const now = (): number => Date.now() - startedAt;
    const sample = sampleInventory({ seed: DEMO_SEED, homes, today });
    const traffic = startTraffic(lb.url, sample, { connections, runId: randomBytes(3).toString('hex'), startedAt });

    const esPid = async (node: number): Promise<number> => livePid(Number((await stack.esPids())[node - 1]), `Elasticsearch node ${node}`);
    /** The node (1-3) that is the elected master now. */
    const masterNode = async (): Promise<number> => {
      const [m] = (await es.cat.master({ format: 'json' })) as Array<{ node?: string }>;
      const n = Number(/-(\d+)$/.exec(m?.node ?? '')?.[1]);
      if (!(n >= 1 && n <= 3)) throw new Error(`no elected master (${JSON.stringify(m)})`);
      return n;
    };
    const clusterGreenWith3 = (): Promise<void> =>
      until('the cluster green with 3 nodes', async () => {
        const h = await es.cluster.health({}).catch(() => null);
        return Boolean(h && h.number_of_nodes === 3 && h.status === 'green');
      });
    const lease = async (): Promise<{ holder: string; expires_at: Date; acquired_at: Date } | null> =>
      (await mongo.collections.indexerState.findOne({ _id: 'lease' }).catch(() => null)) as { holder: string; expires_at: Date; acquired_at: Date } | null;

    const marks3: { down?: number } = {};
    const faults: Fault[] = [
      {
        title: '1. the elected master Elasticsearch node killed (SIGKILL), restarted after 15 s',
        async act(mark) {
          process.kill(await esPid(await masterNode()), 'SIGKILL');
          mark('killed');
          await sleep(15_000);
          await stack.start();
          mark('restarted');
          await clusterGreenWith3();
          mark('green with 3 nodes');
        },
        target: noFailedReads,
      },
      {
        title: '2. an Elasticsearch node frozen (SIGSTOP) for 15 s, then resumed',
        async act(mark) {
          const pid = await esPid(3);
          process.kill(pid, 'SIGSTOP');
          mark('frozen');
          await sleep(15_000);
          process.kill(pid, 'SIGCONT');
          mark('resumed');
          await clusterGreenWith3();
          mark('green with 3 nodes');
        },
        target: noFailedReads,
      },
      {
        title: '3. a service copy killed (SIGKILL), restarted after 10 s',
        async act(mark) {
          await copies[0].kill('SIGKILL');
          mark('killed');
          const downBy = Date.now() + 10_000;
          while (Date.now() < downBy) {
            if (!marks3.down && (await lb.serverStates())['copy1']?.startsWith('DOWN')) mark('marked down by HAProxy');
            await sleep(100);
          }
          await copies[0].start();
          mark('restarted');
          await until('HAProxy marks the copy up', async () => Boolean((await lb.serverStates())['copy1']?.startsWith('UP')));
          mark('marked up by HAProxy');
        },
        target: (f, marks, fault) => {
          const after = fault.answersAfter(marks['marked down by HAProxy'] ?? Infinity);
          if (marks['marked down by HAProxy'] === undefined) return 'HAProxy never marked the killed copy down';
          if (after > 0) return `${after} failed reads after HAProxy marked the copy down (target 0)`;
          if (f.failedReads > connections) return `${f.failedReads} failed reads, more than the ${connections} that can be in flight`;
          return null;
        },
      },
      {
        title: '4. the worker holding the lease killed in the middle of a full rebuild',
        async act(mark) {
          /** The worker whose full rebuild holds the lease now, if any, and since when. */
          const rebuilding = async (): Promise<{ victim: Managed; holder: string; since: number } | null> => {
            const l = await lease();
            if (!l || l.expires_at <= new Date() || !l.holder.startsWith('indexer-full|')) return null;
            const victim = workers.find((w) => w.pid() === Number(l.holder.split('|')[2]));
            return victim ? { victim, holder: l.holder, since: new Date(l.acquired_at).getTime() } : null;
          };
          // A rebuild that has just begun (under a second ago), so that two seconds later it is still going.
          await until(
            'a full rebuild just begun',
            async () => {
              const r = await rebuilding();
              return r !== null && Date.now() - r.since < 1_000;
            },
            5 * 60_000,
          );
          mark('a full rebuild under way');
          await sleep(2_000);
          // Still the same run, two seconds into it: the kill lands in the middle of a rebuild.
          const held = await rebuilding();
          if (!held) throw new Error('the full rebuild ended within 2 s: nothing to kill in the middle of');
          const killedAt = new Date();
          await held.victim.kill('SIGKILL');
          mark(`killed ${held.victim.name}`);
          await until(
            'the other worker takes the lease',
            async () => {
              const l = await lease();
              return Boolean(l && l.holder !== held.holder && l.holder.startsWith('indexer-full|'));
            },
            5 * 60_000,
          );
          mark('the other worker took the lease');
          await until(
            'a full rebuild finished after the kill',
            async () => {
              const full = (await mongo.collections.indexerState.findOne({ _id: 'freshness' }))?.last_full_run as { finished_at?: Date } | undefined;
              return Boolean(full?.finished_at && full.finished_at > killedAt);
            },
            5 * 60_000,
          );
          mark('a full rebuild finished by the other worker');
          await held.victim.start();
          mark('killed worker restarted');
        },
        target: noFailedReads,
      },
      {
        title: '5. the Mongo-wire server stopped (SIGTERM) for 10 s, then started',
        async act(mark) {
          const pid = livePid(await stack.mongoPid(), 'the Mongo-wire server');
          process.kill(pid, 'SIGTERM');
          await until('the Mongo-wire server exits', async () => !alive(pid));
          mark('stopped');
          await sleep(10_000);
          await stack.start();
          mark('started');
        },
        target: (f) => {
          const misses: string[] = [];
          if (f.failedReadsNotNeedingMongo > 0) misses.push(`${f.failedReadsNotNeedingMongo} failed reads of tools that do not need MongoDB (target 0)`);
          if (f.unavailableWithoutRetryAfter > 0) misses.push(`${f.unavailableWithoutRetryAfter} GET 503s without Retry-After`);
          const other = (f.byOutcome.server_error ?? 0) + (f.byOutcome.timeout ?? 0) + (f.byOutcome.error ?? 0);
          if (other > 0) misses.push(`${other} answers other than the service's own 503 (5xx, timeouts, errors)`);
          return misses.length ? misses.join('; ') : null;
        },
      },
    ];

    // The first 20 s warm the copies up (compilation, caches) and are not judged; the next 20 s are the baseline.
    const warmupMs = 20_000;
    const baselineMs = 20_000;
    const slotMs = Math.max(45_000, Math.floor((minutes * 60_000 - warmupMs - baselineMs) / faults.length));
    await sleep(warmupMs + baselineMs);
    const results: Array<{ title: string; from: number; to: number; marks: Record<string, number>; miss: string | null }> = [];
    for (const [i, fault] of faults.entries()) {
      const from = now();
      const marks: Record<string, number> = {};
      log(`fault ${fault.title}`);
      let broke: string | null = null;
      await fault
        .act((what) => {
          marks[what] = now() - from;
          if (i === 2 && what === 'marked down by HAProxy') marks3.down = marks[what];
          log(`  ${what} at +${(marks[what] / 1000).toFixed(1)} s`);
        })
        .catch((err: unknown) => {
          broke = `the fault did not complete: ${(err as Error).message}`;
          log(`  ${broke}`);
        });
      const slotEnd = from + slotMs;
      if (now() < slotEnd) await sleep(slotEnd - now());
      results.push({ title: fault.title, from, to: now(), marks, miss: broke });
    }
    await traffic.stop();
    const baseline = figures(traffic.answers, warmupMs, warmupMs + baselineMs, NEEDS_MONGO);

    say('# Fault run');
    say('');
    say(
      `${new Date().toISOString()}; ${homes} homes; ${minutes} min; concurrency ${connections} through HAProxy; 2 service copies, 2 workers; ` +
        `Elasticsearch 3 nodes (512 MB heap each), one replica; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; ${Math.round(totalmem() / 2 ** 30)} GiB.`,
    );
    say('');
    say(
      `Before the faults (${baselineMs / 1000} s, after ${warmupMs / 1000} s of warm-up): ${baseline.requests} requests, p50 ${fmt(baseline.p50)} ms, p99 ${fmt(baseline.p99)} ms, ${baseline.failedReads} failed reads.`,
    );
    say('');
    const failureLines: string[] = [];
    const noteFailures = (title: string, f: WindowFigures): void => {
      for (const [k, v] of Object.entries(f.failures)) failureLines.push(`- ${title}: ${k} × ${v.count}${v.detail ? ` (${v.detail})` : ''}`);
    };
    noteFailures('before the faults', baseline);
    say('| fault | requests | answers by status | failed reads | p99 ms during the fault | recovery (from the fault) | target |');
    say('|---|---|---|---|---|---|---|');
    for (const [i, r] of results.entries()) {
      const f = figures(traffic.answers, r.from, r.to, NEEDS_MONGO);
      const duringEnd = r.from + Math.max(...Object.values(r.marks), 0);
      const during = figures(traffic.answers, r.from, Math.max(duringEnd, r.from + 1), NEEDS_MONGO);
      const failedAfter = (ms: number): number => figures(traffic.answers, r.from + ms, r.to, NEEDS_MONGO).failedReads;
      const miss = r.miss ?? faults[i].target(f, r.marks, { from: r.from, answersAfter: failedAfter });
      if (miss) failedTargets += 1;
      noteFailures(`fault ${i + 1}`, f);
      const statuses = Object.entries(f.byStatus)
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      const recovery = Object.entries(r.marks)
        .map(([k, v]) => `${k} +${(v / 1000).toFixed(1)} s`)
        .join('; ');
      const lastFailure = f.lastFailureAfter === null ? '' : `; last failed read at +${(f.lastFailureAfter / 1000).toFixed(1)} s`;
      say(
        `| ${r.title} | ${f.requests} | ${statuses} | ${f.failedReads} | ${fmt(during.p99)} | ${recovery}${lastFailure} | ${miss ? `**missed**: ${miss}` : 'met'} |`,
      );
    }
    if (failureLines.length > 0) {
      say('');
      say('Failed reads, by tool, transport and outcome (one message seen):');
      for (const l of failureLines) say(l);
    }
    say('');
    say(`Fault 5 by tool (needs MongoDB: ${[...NEEDS_MONGO].join(', ')}):`);
    const byTool = new Map<string, Record<string, number>>();
    for (const a of traffic.answers) {
      if (endOf(a) < results[4].from || endOf(a) >= results[4].to) continue;
      const key = `${a.tool} (${a.transport})`;
      const t = byTool.get(key) ?? {};
      t[a.outcome] = (t[a.outcome] ?? 0) + 1;
      byTool.set(key, t);
    }
    for (const [k, v] of [...byTool.entries()].sort())
      say(
        `- ${k}: ${Object.entries(v)
          .map(([o, n]) => `${o} ${n}`)
          .join(', ')}`,
      );

    log('load stopped; waiting for the indexer to finish its run');
    // Stopped between two runs: the lease free, and not at a minute's turn, when the schedule starts one.
    await until(
      'the indexer between runs',
      async () => {
        const l = await lease();
        const second = new Date().getSeconds();
        return (!l || l.expires_at <= new Date()) && second >= 5 && second <= 50;
      },
      5 * 60_000,
    ).catch(() => log('the indexer did not pause within 5 min; stopping it anyway'));
    for (const w of workers) await w.kill('SIGTERM');
    const a = await audit(es, mongo.collections, { alias: config.homesAlias, prefix: config.homesIndexPrefix, acknowledged: traffic.acknowledged });
    say('');
    say('## After the run');
    say('');
    say(
      `- booking intents acknowledged: ${a.acknowledged} (${a.emails} emails); missing: ${a.missing.length}; stored twice: ${a.duplicated.length}; one email, two ids: ${a.split.length}`,
    );
    say(
      `- alias → ${a.aliasTargets.join(', ') || 'nothing'} (${a.health}): ${a.indexedDocuments} documents for ${a.homesToIndex} published, undeleted homes in MongoDB`,
    );
    say(`- indexes left beside it: ${a.leftovers.length ? a.leftovers.join(', ') : 'none'}`);
    say(`- ${a.ok ? 'nothing lost, nothing duplicated, the alias on a complete index' : '**the audit failed**'}`);
    if (!a.ok) failedTargets += 1;
    say('');
    say(failedTargets === 0 ? 'Every target met.' : `**${failedTargets} target(s) missed.**`);
    say('');
    say(`The processes' logs: ${process.env.CHAOS_LOG_DIR ?? '~/.cache/catalog-chaos/logs'}.`);
  } finally {
    for (const m of everything) await m.kill('SIGTERM').catch(() => undefined);
    await mongo.close().catch(() => undefined);
    await es.close().catch(() => undefined);
    if (!values.keep) await stack.stop().catch(() => undefined);
  }
  writeFileSync('chaos-report.md', lines.join('\n') + '\n');
  process.stdout.write('\nwritten to chaos-report.md\n');
  process.exit(failedTargets === 0 ? 0 : 1);
}

/** A pid to signal: never 0 or less (process.kill(0) signals this whole process group). */
function livePid(pid: number, what: string): number {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${what} is not running (no pid)`);
  return pid;
}

/** Waits until `check` holds; throws after `ms` (the run stays bounded). */
async function until(what: string, check: () => Promise<boolean>, ms = 3 * 60_000): Promise<void> {
  const by = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > by) throw new Error(`${what}: not within ${Math.round(ms / 1000)} s`);
    await sleep(250);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`chaos run failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
