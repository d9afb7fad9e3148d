/**
 * A read on three nodes while one freezes, through the real client, node watch and search transport,
 * against stand-in nodes: the shard the read needs has copies on b and c, and a coordinator reads
 * c's copy unless the preference names the others, so the read's first attempt waits on the frozen
 * node (the worst case of a read sent just after a freeze, before the watch has seen it).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors } from '@elastic/elasticsearch';
import { createEsClient, type EsClient } from '../../../services/kernel/store/es-client';
import { watchNodes, watchTiming, type NodeWatch } from '../../../services/kernel/store/node-watch';
import { sendRoundTrip } from '../../../services/search/shared/search-transport';

const DEADLINE_MS = 2_000;

interface Cluster {
  frozen: Set<string>;
  /** Searches the nodes received (probes not counted). */
  searches: () => number;
  es: EsClient;
  watch: NodeWatch;
  close(): Promise<void>;
}

/** `searchMs`: how long a search takes on nodes that answer (a large overview page on a loaded machine), Infinity: never. */
/** `failFirst`: the first search is answered as a cluster electing a master answers it (a 500, a shard's node not connected). */
/** `deadlineMs`: the store deadline the client and the node watch are given. */
async function cluster(searchMs: number, failFirst = false, deadlineMs = DEADLINE_MS): Promise<Cluster> {
  const frozen = new Set<string>();
  let searches = 0;
  const servers: Server[] = [];
  const urls: string[] = [];
  for (const id of ['a', 'b', 'c']) {
    const server = createServer((req, res) => {
      if (frozen.has(id)) return; // SIGSTOP: the connection stays open, nothing answers
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-elastic-product', 'Elasticsearch');
        if (req.url!.startsWith('/_nodes/_local')) return void res.end(JSON.stringify({ nodes: { [id]: { name: id } } }));
        searches += 1;
        const preference = new URL(req.url!, 'http://node').searchParams.get('preference') ?? '';
        const copy = preference.includes('c') || !preference ? 'c' : 'b';
        if (frozen.has(copy)) return; // the coordinator waits on the frozen node's copy
        if (failFirst && searches === 1) {
          res.statusCode = 500;
          const cause = { type: 'node_not_connected_exception', reason: '[es-2] Node not connected' };
          return void res.end(JSON.stringify({ error: { root_cause: [cause], type: 'search_phase_execution_exception' }, status: 500 }));
        }
        if (searchMs === Infinity) return; // a search that never ends (no timer left behind)
        setTimeout(() => res.end(JSON.stringify({ hits: { total: { value: 1, relation: 'eq' }, hits: [] } })), searchMs);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  const watch = watchNodes(urls, watchTiming(deadlineMs));
  const es = createEsClient(urls.join(','), { deadlineMs, watch });
  await watch.recheck();
  return {
    frozen,
    searches: () => searches,
    es,
    watch,
    async close() {
      watch.close();
      await es.close();
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/** A request's signal, and how many abort events it saw while it was not aborted (none may reach it). */
function requestSignal(): { signal: AbortSignal; strayEvents: () => number } {
  const controller = new AbortController();
  let stray = 0;
  controller.signal.addEventListener('abort', () => {
    if (!controller.signal.aborted) stray += 1;
  });
  return { signal: controller.signal, strayEvents: () => stray };
}

describe('a read while a node freezes', () => {
  it('sent 0.1 s after the freeze, gets its answer within the store deadline, its second attempt having most of it', async () => {
    const c = await cluster(650);
    try {
      c.frozen.add('c');
      await new Promise((r) => setTimeout(r, 100));
      const { signal, strayEvents } = requestSignal();
      const started = Date.now();
      // The deadline as this process's timers keep it: on a loaded machine (a parallel test run) a timer fires late,
      // the read's own as much as this one, so the read is held to this timer's firing rather than to the clock alone.
      const deadline = new Promise<number>((resolve) => setTimeout(() => resolve(Date.now()), DEADLINE_MS));
      const [res] = await sendRoundTrip(c.es, 'homes', [{ query: { match_all: {} } }], c.watch, signal);
      const ended = Date.now();
      expect(res.hits.total).toEqual({ value: 1, relation: 'eq' });
      expect(ended).toBeLessThan(Math.max(started + DEADLINE_MS, (await deadline) + 100));
      expect(strayEvents()).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('a read that gets no answer on either attempt fails as a timeout, within the deadline, and its request signal hears nothing', async () => {
    const c = await cluster(Infinity);
    try {
      const { signal, strayEvents } = requestSignal();
      const started = Date.now();
      const err = await sendRoundTrip(c.es, 'homes', [{ query: { match_all: {} } }], c.watch, signal).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(errors.TimeoutError);
      expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 300);
      expect(strayEvents()).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('a search the cluster could not serve (a 500 while a master is elected) is sent once more and answered', async () => {
    const c = await cluster(50, true);
    try {
      const [res] = await sendRoundTrip(c.es, 'homes', [{ query: { match_all: {} } }], c.watch);
      expect(res.hits.total).toEqual({ value: 1, relation: 'eq' });
      expect(c.searches()).toBe(2);
    } finally {
      await c.close();
    }
  });
});

describe('a slow read on nodes that all answer', () => {
  // A 4 s deadline, so the answer at 2.3 s (past half of it) still has 1.7 s to spare on a machine busy with
  // other test files.
  it('is not thrown away at half the deadline: its first attempt, answering at 2.3 s of 4, is the answer', async () => {
    const deadlineMs = 4_000;
    const c = await cluster(2_300, false, deadlineMs);
    try {
      const started = Date.now();
      const [res] = await sendRoundTrip(c.es, 'homes', [{ query: { match_all: {} } }], c.watch);
      expect(res.hits.total).toEqual({ value: 1, relation: 'eq' });
      expect(Date.now() - started).toBeLessThan(deadlineMs);
      // The second attempt was sent beside it at half the deadline, and ended when the first answered.
      expect(c.searches()).toBe(2);
    } finally {
      await c.close();
    }
  });
});
