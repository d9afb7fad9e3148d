/**
 * The embedded store's figures: seeding, full rebuild under reads, incremental runs,
 * unique-key reads sampled over the whole inventory plus unknown slugs, and the idle cost.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../../services/kernel/store/collections';
import type { Config } from '../../services/kernel/config';
import type { Deps } from '../../services/deps';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { runIndexerJob } from '../../indexer/runner';
import { RETIRE_AFTER_MS, type RebuildPhase } from '../../indexer/full-rebuild';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { homeBytesBySlice, loadLookups } from '../../indexer/source';
import { pooledDocuments, workersFor } from '../../indexer/document-pool';
import { bulkLoadPrebuilt, type PrebuiltDocument } from '../../indexer/bulk-load';
import { createHomesIndex, deleteIndexes, finishLoading, ownAlias } from '../../indexer/es-admin';
import { ensureRoutingKeys } from '../../indexer/routing-keys';
import { readRoutingKeys } from '../../services/kernel/store/home-routing';
import { planSlices, readSliceCensus } from '../../indexer/id-slices';
import { shardCopies, type CompactionOutcome } from '../../indexer/compaction';
import { DEMO_SEED, seedDemoInventory } from '../../stack/demo/demo-inventory';
import { clockTicks, cpuTicks, stackPids, withCpuAt16 } from './cpu';
import { IDENTITY, runLoad, row, storeLoad, TABLE_HEAD, type LoadResult, type Probe } from './load';
import { readGeneration } from '../../services/kernel/store/index-generation';
import type { Sample } from './sample';
import type { SwitchedProcess } from './service-process';

export interface BenchContext {
  config: Config;
  /** The running service's dependencies, for in-process calls (the search bench counts priced homes). */
  deps: Deps;
  es: Client;
  mongo: Collections;
  /** The service under load, in its own process (started on first use, once the inventory exists). */
  service(): Promise<{ url: string; pid: number }>;
  /** Another service process with some settings changed (closed when the bench ends, or sooner by its `close`). */
  serviceWith(env: Record<string, string>): Promise<{ url: string; pid: number; close(): Promise<void> }>;
  /** The bench's floor (floor-server.ts): the same store calls behind a bare Node HTTP server, in its own process. */
  floor(): Promise<{ url: string; pid: number }>;
  /**
   * A copy of the service or of the floor, with `env` over the bench's, whose tracing is switched as it runs
   * (tracing-switch.ts; closed with the bench, or by the caller).
   */
  switched(kind: 'service' | 'floor', env: Record<string, string>): Promise<SwitchedProcess>;
  homes: number;
  today: string;
  sample: Sample;
  say: (line?: string) => void;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; s: number }> {
  const t = process.hrtime.bigint();
  const value = await work();
  return { value, s: Number(process.hrtime.bigint() - t) / 1e9 };
}

/** Seeds when the bench database does not hold the wanted size; always rebuilds and times the runs. */
export async function indexingBench(ctx: BenchContext): Promise<void> {
  const { say, mongo, es, config } = ctx;
  say('## Seeding and indexing');
  say('');
  const have = await mongo.homes.estimatedDocumentCount();
  if (have !== ctx.homes) {
    const seed = await timed(() => seedDemoInventory(mongo, { seed: DEMO_SEED, homes: ctx.homes, today: ctx.today }));
    say(`- seed ${seed.value.homes} homes: **${seed.s.toFixed(0)} s** (${Math.round(seed.value.homes / seed.s)} homes/s; target ≤ 180 s)`);
  } else {
    say(`- seed: reusing the ${have} homes already in the bench database (delete it to time a seed)`);
  }

  if ((await es.indices.existsAlias({ name: config.homesAlias })) === false) {
    const first = await timed(() => runIndexerJob('full', es, mongo, config));
    say(`- first build (no index yet): ${first.value.documents} documents in ${first.s.toFixed(0)} s`);
  }
  // The rebuild's floor on this machine: what reading the homes alone costs, the way a rebuild reads them.
  const read = await processTime(() => readEveryHome(mongo));
  say(
    `- floor: reading every home from MongoDB as a rebuild does (\`_id\` slices, raw BSON, nothing else): **${read.s.toFixed(0)} s** ` +
      `(${read.value.homes} homes, ${(read.value.bytes / 2 ** 20).toFixed(0)} MB of BSON; processor time: ${read.cpu})`,
  );
  // The rebuild's two other floors, same run: its documents built alone (read and built on the same
  // threads, nothing sent), then those same documents loaded alone into a fresh index with the same
  // mapping, settings, bulk sizes and finishing (refresh, one segment), nothing else running.
  const file = path.join(tmpdir(), `bench-floor-${process.pid}.ndjson`);
  const floorIndex = `${config.homesIndexPrefix}-floor`;
  try {
    await deleteIndexes(es, [floorIndex]);
    await createHomesIndex(es, floorIndex);
    const built = await processTime(() => buildEveryDocument(ctx, floorIndex, file));
    say(
      `- floor: every document built as the rebuild builds them (the same reads and worker threads, nothing sent): **${built.s.toFixed(0)} s** ` +
        `(${built.value.documents} documents, ${(built.value.bytes / 2 ** 20).toFixed(0)} MB of JSON; processor time: ${built.cpu})`,
    );
    const t = Date.now();
    let loadedAt = 0;
    const ingest = await processTime(async () => {
      await bulkLoadPrebuilt(es, floorIndex, documentsOf(file), { flushBytes: config.indexerFlushBytes, concurrency: config.indexerConcurrency });
      loadedAt = (Date.now() - t) / 1000;
      await finishLoading(es, floorIndex, config.indexReplicas);
    });
    say(
      `- floor: Elasticsearch alone ingesting those documents (bulk load as the rebuild sends it, then refresh and merge to one segment): ` +
        `**${ingest.s.toFixed(0)} s** (loaded at ${loadedAt.toFixed(0)} s); processor time: ${ingest.cpu}`,
    );
  } finally {
    await deleteIndexes(es, [floorIndex]).catch(() => undefined);
    await rm(file, { force: true });
  }
  // The rebuild alone: nothing else asks the three processes for their 2 cores.
  const t0 = Date.now();
  const at: Partial<Record<RebuildPhase, number>> = {};
  const alone = await processTime(() => runIndexerJob('full', es, mongo, config, { onPhase: (p) => (at[p] = (Date.now() - t0) / 1000) }));
  say(
    `- full rebuild alone (no readers): ${alone.value.documents} documents, **serving from the new index after ${at.swapped?.toFixed(0)} s** ` +
      `(target ≤ 60 s; loaded at ${at.loaded?.toFixed(0)} s, refreshed and merged at ${at.ready?.toFixed(0)} s), the run done after ${alone.s.toFixed(0)} s ` +
      `(the previous index retires ${RETIRE_AFTER_MS / 1000} s after the swap); processor time: ${alone.cpu}`,
  );
  // Readers through the alias during the whole rebuild: the swap must not fail one of them. A market
  // search (it reads the alias every time) and a home, 20 times a second: steady traffic, not a load
  // test competing with the rebuild for the 2 cores.
  const { url } = await ctx.service();
  let reading = true;
  const reads = (async () => {
    const out = { ok: 0, failed: 0 };
    while (reading) {
      const paced = new Promise((r) => setTimeout(r, 50));
      const paths = [`/api/public/search?market=${ctx.sample.marketSlug()}`, `/api/public/homes/${ctx.sample.slug()}`];
      for (const p of paths) {
        const res = await fetch(url + p);
        await res.arrayBuffer();
        if (res.status === 200 || res.status === 404) out.ok += 1;
        else out.failed += 1;
      }
      await paced;
    }
    return out;
  })();
  const full = await processTime(() => runIndexerJob('full', es, mongo, config));
  reading = false;
  const r = await reads;
  say(
    `- full rebuild: ${full.value.documents} documents in **${full.s.toFixed(0)} s** (${Math.round(full.value.documents / full.s)} docs/s; ` +
      `target ≤ 180 s; alone ≤ 60 s), alias swap included; reads during it: ${r.ok} answered, **${r.failed} failed**; processor time: ${full.cpu}`,
  );
  const [built] = await es.cat.indices({ index: config.homesAlias, format: 'json', bytes: 'b' });
  say(
    `- the rebuilt index: ${Number(built['docs.count']).toLocaleString('en-US')} Lucene documents, ${(Number(built['store.size']) / 2 ** 20).toFixed(0)} MB on disk`,
  );

  const idle = await timed(() => runIndexerJob('incremental', es, mongo, config));
  say(`- incremental run with nothing changed: **${(idle.s * 1000).toFixed(0)} ms** (target ≤ 1 s)`);

  const changed = ctx.sample.homeIds(1_000);
  const stamp = new Date();
  for (let i = 0; i < changed.length; i += 100) {
    const batch = changed.slice(i, i + 100);
    await Promise.all(batch.map((id) => mongo.homes.updateOne({ _id: id }, { $set: { name: `Bench edit ${stamp.toISOString()}`, updated_at: stamp } })));
  }
  await recordChanges(mongo.inventoryChanges, 'bench', { homes: changed });
  let merge: Promise<CompactionOutcome> | undefined;
  const inc = await timed(() =>
    runIndexerJob('incremental', es, mongo, config, {
      onCompaction: (m) => {
        merge = m;
      },
    }),
  );
  // The merge the run started, waited for: the sections after this one read the index as it ends up.
  const merged = await timed(async () => merge);
  const copies = await shardCopies(es, config.homesAlias);
  say(
    `- incremental run after 1,000 changed homes (sampled over the whole inventory): **${inc.s.toFixed(1)} s** ` +
      `(${inc.value.documents} indexed, ${inc.value.deleted} removed; target ≤ 15 s); the merge it started ended ${merged.s.toFixed(1)} s later ` +
      `(${JSON.stringify(merged.value)}): ${copies.reduce((n, c) => n + c.segments, 0)} segments in ${copies.length} shard copies`,
  );
  say('');
}

/** Every home's raw bytes, read as a full rebuild reads them, and nothing done with them. */
async function readEveryHome(mongo: Collections): Promise<{ homes: number; bytes: number }> {
  let homes = 0;
  let bytes = 0;
  // The slices the next rebuild reads: grouped by the last rebuild's census (indexer/id-slices.ts).
  for await (const slice of homeBytesBySlice(mongo, planSlices(await readSliceCensus(mongo.indexerState)))) {
    homes += slice.length;
    for (const b of slice) bytes += b.length;
  }
  return { homes, bytes };
}

/** Every document of a rebuild, built by the rebuild's pool from the same reads, written as lines to `file` (id and routing, then the JSON). */
async function buildEveryDocument(ctx: BenchContext, index: string, file: string): Promise<{ documents: number; bytes: number }> {
  const { mongo, es, config, today } = ctx;
  const [total, lookups, census] = await Promise.all([mongo.homes.estimatedDocumentCount(), loadLookups(mongo), readSliceCensus(mongo.indexerState)]);
  const routingKeys = await ensureRoutingKeys(es, index, lookups.markets.keys(), await readRoutingKeys(es, ownAlias(config.homesAlias)));
  const out = createWriteStream(file);
  let documents = 0;
  let bytes = 0;
  for await (const doc of pooledDocuments(homeBytesBySlice(mongo, planSlices(census)), { lookups, today, routingKeys }, () => undefined, workersFor(total))) {
    documents += 1;
    bytes += doc.json.length;
    if (!out.write(`${JSON.stringify({ id: doc.id, routing: doc.routing })}\n${doc.json}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { documents, bytes };
}

/** The documents `buildEveryDocument` wrote, in order. */
async function* documentsOf(file: string): AsyncGenerator<PrebuiltDocument> {
  let head: { id: string; routing: string } | null = null;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (head === null) head = JSON.parse(line) as { id: string; routing: string };
    else {
      yield { ...head, json: line };
      head = null;
    }
  }
}

/** Wall time and each local process's processor seconds (this one, which builds documents on its worker threads, and the stack's servers). */
async function processTime<T>(work: () => Promise<T>): Promise<{ value: T; s: number; cpu: string }> {
  const pids = { 'this process': process.pid, Elasticsearch: stackPids().es, 'Mongo-wire server': stackPids().mongo };
  const before = Object.entries(pids).map(([name, pid]) => [name, pid === undefined ? null : cpuTicks(pid)] as const);
  const out = await timed(work);
  const cpu = before
    .flatMap(([name, start]) => {
      const pid = pids[name as keyof typeof pids];
      const end = pid === undefined ? null : cpuTicks(pid);
      return start === null || end === null ? [] : [`${name} ${((end - start) / clockTicks()).toFixed(0)} s`];
    })
    .join(', ');
  return { ...out, cpu: cpu || 'not readable here' };
}

/** How long the lookups section reads before it measures. */
const WARM_SECONDS = 20;

/** homes/{slug} and the quote, slugs drawn uniformly over the inventory plus 10 % unknown ones. */
export async function lookupBench(ctx: BenchContext, seconds: number): Promise<void> {
  const { say, sample } = ctx;
  say('## Unique-key reads (slugs uniform over the whole inventory, 10 % unknown)');
  say('');
  say(...[TABLE_HEAD[0]].map(String));
  say(TABLE_HEAD[1]);
  const home = (): Probe => ({ path: `/api/public/homes/${sample.slugOrUnknown()}` });
  const quote = (): Probe => {
    const stay = sample.stay();
    return { path: `/api/public/homes/${sample.slugOrUnknown()}/quote?check_in=${stay.start}&check_out=${stay.end}` };
  };
  // The floor, same run: the lookups a read needs, straight to MongoDB from here (with the building
  // read each time, and kept as the service keeps it beside the generation), and behind a bare Node server.
  const kept = new Map<string, unknown>();
  const lookups = {
    'home by slug, then its building by _id': async () => {
      const h = await ctx.mongo.homes.findOne({ slug: sample.slugOrUnknown() });
      if (h) await ctx.mongo.properties.findOne({ _id: h.property_id });
    },
    'home by slug beside the index generation, the building kept': async () => {
      const [h] = await Promise.all([ctx.mongo.homes.findOne({ slug: sample.slugOrUnknown() }), readGeneration(ctx.mongo.indexerState)]);
      if (h && !kept.has(h.property_id)) kept.set(h.property_id, await ctx.mongo.properties.findOne({ _id: h.property_id }));
    },
  };
  const floor = (): Probe => ({ method: 'POST', path: '/home', body: JSON.stringify(sample.slugOrUnknown()) });
  // Processor time per answer at concurrency 16: on 2 shared cores, steadier than the rates.
  const cpu: string[] = [];
  const measuredRow = async (title: string, pid: number, load: () => Promise<LoadResult>, connections: number): Promise<void> => {
    const { result, cpu: per } = await withCpuAt16(connections, { process: pid, mongo: stackPids().mongo }, load);
    say(row(`${title}, concurrency ${connections}`, result));
    if (per.process !== undefined)
      cpu.push(`${title}: ${per.process.toFixed(2)} ms in its process, ${per.mongo?.toFixed(2) ?? '?'} ms in the Mongo-wire server`);
  };
  // A copy's steady state: its kept buildings warmed by reads over the whole inventory first (10,000
  // buildings at 100,000 homes; 20 s of reads ask most of them), as a copy serving for a while has them.
  await runLoad((await ctx.service()).url, home, { connections: 16, seconds: WARM_SECONDS });
  for (const connections of [1, 16]) {
    const svc = await ctx.service();
    // Asked as clients ask (gzip, deflate, br: load.ts), and beside it without compression.
    await measuredRow('GET homes/{slug}', svc.pid, () => runLoad(svc.url, home, { connections, seconds }), connections);
    const plainHome = (): Probe => ({ ...home(), headers: IDENTITY });
    await measuredRow('GET homes/{slug}, identity', svc.pid, () => runLoad(svc.url, plainHome, { connections, seconds }), connections);
    await measuredRow('GET homes/{slug}/quote', svc.pid, () => runLoad(svc.url, quote, { connections, seconds }), connections);
    for (const [title, call] of Object.entries(lookups))
      say(row(`MongoDB alone: ${title}, concurrency ${connections}`, await storeLoad(call, connections, seconds)));
    const bare = await ctx.floor();
    await measuredRow('bare Node server: those lookups answered as JSON', bare.pid, () => runLoad(bare.url, floor, { connections, seconds }), connections);
  }
  say('');
  say('Processor time per answer at concurrency 16 (utime + stime from /proc):');
  say('');
  for (const line of cpu) say(`- ${line}`);
  say('');
  say('Targets: p50 ≤ 1.0 ms and p99 ≤ 4 ms at concurrency 1; at least 2,500 answers/s at concurrency 16.');
  say('');
}

/** CPU of the local servers and the service process while nothing happens. */
export async function idleBench(ctx: BenchContext, seconds: number): Promise<void> {
  const pids = stackPids();
  const hz = clockTicks();
  const svc = await ctx.service();
  const local = [
    ['Elasticsearch', pids.es],
    ['Mongo-wire server', pids.mongo],
    ['service process', svc.pid],
  ] as const;
  const before = local.map(([, pid]) => (pid ? (cpuTicks(pid) ?? 0) : 0));
  await new Promise((r) => setTimeout(r, seconds * 1_000));
  const pct = (cpuSeconds: number): string => `${((cpuSeconds / seconds) * 100).toFixed(2)} %`;
  ctx.say(`## Idle cost (${seconds} s with no requests and no changes; % of one core)`);
  ctx.say('');
  let total = 0;
  local.forEach(([name, pid], i) => {
    if (!pid) return;
    const s = ((cpuTicks(pid) ?? before[i]) - before[i]) / hz;
    total += s;
    ctx.say(`- ${name}: ${pct(s)}`);
  });
  ctx.say(`- together: **${pct(total)}** (target < 2 %)`);
  ctx.say('');
}
