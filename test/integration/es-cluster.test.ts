/**
 * Scale-out on the local stack: stack/start.sh starts a three-node Elasticsearch cluster
 * (STACK_ES_NODES=3) beside the test stack, the indexer builds the homes index on it with one
 * replica of every shard on another node, and the service, given the nodes as a comma list in
 * ES_URL, keeps answering reads while one node is frozen (SIGSTOP) and while one is killed
 * (SIGKILL): every answer a 200 with the same homes as before. Needs the local stack's scripts (a JDK); with servers from elsewhere
 * (ES_URL/MONGO_URL not the local stack, containers) there is no cluster of ours to start.
 *
 * @run-alone it starts three more Elasticsearch nodes (heap, processor) and freezes and kills them under reads.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { testConfig, seedWorld, dropWorld } from '../support/fixture';
import { startService, type RunningService } from '../../services/main';
import type { Config } from '../../services/kernel/config';
import type { EsClient } from '../../services/kernel/store/es-client';
import type { MongoHandle } from '../../services/kernel/store/mongo';

const STACK = path.resolve(__dirname, '../../stack');
/** The cluster's first http and transport ports; nodes 2 and 3 take the next ones. */
const clusterEnv = {
  STACK_ES_NODES: '3',
  ES_PORT: process.env.CLUSTER_TEST_ES_PORT ?? '9281',
  ES_TRANSPORT_PORT: process.env.CLUSTER_TEST_ES_TRANSPORT_PORT ?? '19381',
  // The JIT's quick tier only: three JVMs start on the machine's cores together, and C2's compiles
  // take most of that processor time; the reads below are few, so the nodes serve them as well.
  CATALOG_ES_JAVA_OPTS: '-XX:TieredStopAtLevel=1',
};

function stackScript(script: string, args: string[] = [], env: Record<string, string> = {}): string {
  const { ES_URL: _es, MONGO_URL: _mongo, ...rest } = process.env;
  return execFileSync('bash', [path.join(STACK, script), ...args], {
    encoding: 'utf8',
    env: { ...rest, ...clusterEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 10 * 60_000,
  });
}

const keyValues = (out: string): Record<string, string> =>
  Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );

/** The test stack is the local one (its MongoDB and the single node are ours), so a cluster can start beside it. */
function localStack(): boolean {
  const v = keyValues(execFileSync('bash', [path.join(STACK, 'status.sh'), '--pids'], { encoding: 'utf8' }));
  return process.env.ES_URL?.replace(/\/$/, '') === v.ES_URL && process.env.MONGO_URL === v.MONGO_URL && Boolean(v.MONGO_PID);
}

const local = localStack();
const describeLocal = local ? describe : describe.skip;
if (!local) process.stderr.write('es-cluster tests skipped: ES_URL/MONGO_URL are not the local stack\n');

let clusterUrl: string;
let config: Config;
let world: { mongo: MongoHandle; es: EsClient; today: string };
let svc: RunningService;

beforeAll(async () => {
  if (!local) return;
  clusterUrl = keyValues(stackScript('start.sh', [], { MONGO_URL: process.env.MONGO_URL! })).ES_URL;
  config = testConfig({ ES_URL: clusterUrl });
  world = await seedWorld(config, 60);
  svc = await startService(config);
}, 10 * 60_000);

afterAll(async () => {
  if (!local) return;
  await svc?.close();
  if (world) await dropWorld(config, world.mongo, world.es);
  stackScript('stop.sh', ['es']);
}, 5 * 60_000);

async function get(p: string): Promise<{ status: number; body: any }> {
  const res = await fetch(svc.url + p);
  return { status: res.status, body: await res.json().catch(() => null) };
}

describeLocal('a three-node Elasticsearch cluster', () => {
  it('is started by stack/start.sh with one URL per node, and the indexer gives every shard a replica on another node', async () => {
    expect(clusterUrl.split(',')).toHaveLength(3);
    const health = await world.es.cluster.health({ index: config.homesAlias });
    expect(health.number_of_nodes).toBe(3);
    expect(health.status).toBe('green');
    const shards = (await world.es.cat.shards({ index: config.homesAlias, format: 'json', h: 'shard,prirep,state,node' })) as Array<{
      shard: string;
      prirep: string;
      state: string;
      node: string;
    }>;
    const byShard = new Map<string, Array<{ prirep: string; node: string; state: string }>>();
    for (const s of shards) byShard.set(s.shard, [...(byShard.get(s.shard) ?? []), s]);
    expect(byShard.size).toBe(12);
    for (const copies of byShard.values()) {
      expect(copies.map((c) => c.prirep).sort()).toEqual(['p', 'r']);
      expect(copies.every((c) => c.state === 'STARTED')).toBe(true);
      expect(new Set(copies.map((c) => c.node)).size).toBe(2);
    }
  });

  /** Reads for 8 s while `fault` acts on a node; every answer must be a 200 with the same homes as before. */
  async function readsThrough(fault: () => void): Promise<void> {
    const market = (await world.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.market_slug;
    const day = (n: number): string => new Date(Date.parse(`${world.today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const reads = [
      `/api/public/search?market=${market}&per_page=50`,
      `/api/public/search?market=${market}&check_in=${day(20)}&check_out=${day(50)}&sort_by=price_asc&per_page=10`,
      // every shard: the market list
      '/api/public/markets',
    ];
    const before = await Promise.all(reads.map(get));
    for (const a of before) expect(a.status).toBe(200);
    expect(before[0].body.total_count).toBeGreaterThan(0);
    fault();
    const answers: Array<{ status: number; body: any; read: number }> = [];
    const until = Date.now() + 8_000;
    while (Date.now() < until) {
      const round = await Promise.all(reads.map(async (r, read) => ({ ...(await get(r)), read })));
      answers.push(...round);
    }
    expect(answers.length).toBeGreaterThan(reads.length * 3);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    for (const a of answers) {
      if (a.read === 0) expect(a.body.total_count).toBe(before[0].body.total_count);
      if (a.read === 1) {
        expect(a.body.total_count).toBe(before[1].body.total_count);
        expect(a.body.homes.map((h: { slug: string }) => h.slug)).toEqual(before[1].body.homes.map((h: { slug: string }) => h.slug));
      }
      if (a.read === 2) expect(a.body).toEqual(before[2].body);
    }
  }

  const nodePids = (): number[] =>
    keyValues(stackScript('status.sh', ['--pids']))
      .ES_PIDS.split(',')
      .map(Number);

  it(
    'keeps answering reads, with the same homes, while one node is frozen (SIGSTOP), and the node rejoins after',
    async () => {
      const pids = nodePids();
      expect(pids.every((p) => p > 0)).toBe(true);
      // Node 2: it holds copies of shards like any other, and a frozen node is not dropped from the
      // cluster for tens of seconds (the service's node watch keeps the reads off it meanwhile).
      try {
        await readsThrough(() => process.kill(pids[1], 'SIGSTOP'));
      } finally {
        process.kill(pids[1], 'SIGCONT');
      }
      const health = await world.es.cluster.health({ wait_for_nodes: '3', wait_for_status: 'green', timeout: '60s' });
      expect(health.number_of_nodes).toBe(3);
    },
    5 * 60_000,
  );

  it(
    'keeps answering reads, with the same homes, while one node is killed (SIGKILL)',
    async () => {
      // Node 1, the first started and usually the elected master: its loss also moves the master.
      const victim = nodePids()[0];
      await readsThrough(() => process.kill(victim, 'SIGKILL'));
      const health = await world.es.cluster.health({});
      expect(health.number_of_nodes).toBe(2);
    },
    5 * 60_000,
  );
});
