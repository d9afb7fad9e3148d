import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { watchNodes, watchTiming } from '../../../services/kernel/store/node-watch';

/** A stand-in for one node's `GET /_nodes/_local`: answers with its id, or holds every request while frozen. */
async function node(id: string, basic?: string): Promise<{ url: string; frozen: boolean; server: Server }> {
  const state = { url: '', frozen: false, server: createServer() };
  state.server.on('request', (req, res) => {
    if (state.frozen) return; // no answer, like a process stopped with SIGSTOP
    if (basic && req.headers.authorization !== `Basic ${Buffer.from(basic).toString('base64')}`) {
      res.statusCode = 401;
      res.end('{}');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ nodes: { [id]: { name: `node-${id}` } } }));
  });
  await new Promise<void>((r) => state.server.listen(0, '127.0.0.1', () => r()));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

const until = async (check: () => boolean, ms = 3_000): Promise<void> => {
  const by = Date.now() + ms;
  while (!check()) {
    if (Date.now() > by) throw new Error('not within time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('watchNodes', () => {
  it('prefers nothing on a single node, and sends everything there', () => {
    const w = watchNodes(['http://127.0.0.1:9']);
    expect(w.several).toBe(false);
    expect(w.preference()).toBeUndefined();
    expect(w.answers('http://127.0.0.1:9')).toBe(true);
    w.close();
  });

  it('while one node does not answer, prefers the others by id and leaves it out; when it answers again, prefers nothing', async () => {
    const nodes = await Promise.all(['a1', 'b2', 'c3'].map((id) => node(id)));
    const w = watchNodes(
      nodes.map((n) => n.url),
      // A timeout a loaded machine's healthy node still meets; the frozen one never answers.
      { intervalMs: 100, timeoutMs: 250 },
    );
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(w.preference()).toBeUndefined();
      nodes[2].frozen = true;
      // The steady state: one late answer of a healthy node under load may pass through on the way.
      await until(() => w.preference() === '_prefer_nodes:a1,b2', 5_000);
      expect(w.preference()).toBe('_prefer_nodes:a1,b2');
      expect(w.answers(new URL(`${nodes[2].url}/`))).toBe(false);
      expect(w.answers(nodes[0].url)).toBe(true);
      nodes[2].frozen = false;
      await until(() => w.preference() === undefined, 5_000);
      expect(w.answers(nodes[2].url)).toBe(true);
    } finally {
      w.close();
      for (const n of nodes) n.server.closeAllConnections();
      await Promise.all(nodes.map((n) => new Promise((r) => n.server.close(r))));
    }
  });

  it('when no node answers, leaves none out (the requests then fail on their own deadline)', async () => {
    const nodes = await Promise.all(['a1', 'b2'].map((id) => node(id)));
    const w = watchNodes(
      nodes.map((n) => n.url),
      { intervalMs: 50, timeoutMs: 40 },
    );
    try {
      for (const n of nodes) n.frozen = true;
      await new Promise((r) => setTimeout(r, 200));
      expect(w.preference()).toBeUndefined();
      expect(nodes.every((n) => w.answers(n.url))).toBe(true);
    } finally {
      w.close();
      for (const n of nodes) n.server.closeAllConnections();
      await Promise.all(nodes.map((n) => new Promise((r) => n.server.close(r))));
    }
  });

  it('sees a node that stops answering before the first attempt of a read (half the store deadline) gives up', () => {
    for (const deadline of [100, 400, 1_000, 2_000, 10_000]) {
      const t = watchTiming(deadline);
      expect(t.intervalMs + t.timeoutMs).toBeLessThan(deadline / 2);
      expect(t.timeoutMs).toBeGreaterThan(0);
    }
  });

  it('sends the credentials of a node URL as a Basic header (a secured cluster is watched, not taken as all down)', async () => {
    const nodes = await Promise.all(['a1', 'b2'].map((id) => node(id, 'elastic:s3cr%t')));
    const urls = nodes.map((n) => n.url.replace('http://', 'http://elastic:s3cr%25t@'));
    const w = watchNodes(urls, { intervalMs: 50, timeoutMs: 40 });
    try {
      await new Promise((r) => setTimeout(r, 150));
      nodes[1].frozen = true;
      await until(() => w.preference() !== undefined);
      expect(w.preference()).toBe('_prefer_nodes:a1');
      expect(w.answers(new URL(urls[1]))).toBe(false);
    } finally {
      w.close();
      for (const n of nodes) n.server.closeAllConnections();
      await Promise.all(nodes.map((n) => new Promise((r) => n.server.close(r))));
    }
  });

  it('recheck asks every node at once: a node that froze since the last round is left out when it returns', async () => {
    const nodes = await Promise.all(['a1', 'b2'].map((id) => node(id)));
    // Rounds ten seconds apart: only recheck can notice the freeze within this test.
    const w = watchNodes(
      nodes.map((n) => n.url),
      { intervalMs: 10_000, timeoutMs: 100 },
    );
    try {
      await w.recheck();
      expect(w.preference()).toBeUndefined();
      nodes[0].frozen = true;
      await w.recheck();
      expect(w.preference()).toBe('_prefer_nodes:b2');
      expect(w.answers(nodes[0].url)).toBe(false);
    } finally {
      w.close();
      for (const n of nodes) n.server.closeAllConnections();
      await Promise.all(nodes.map((n) => new Promise((r) => n.server.close(r))));
    }
  });

  it('recheck does not wait for a node already left out: its silence would only take time from the read that asked', async () => {
    const nodes = await Promise.all(['a1', 'b2', 'c3'].map((id) => node(id)));
    const w = watchNodes(
      nodes.map((n) => n.url),
      { intervalMs: 10_000, timeoutMs: 300 },
    );
    try {
      await w.recheck();
      nodes[2].frozen = true;
      await w.recheck();
      expect(w.preference()).toBe('_prefer_nodes:a1,b2');
      const started = Date.now();
      await w.recheck();
      expect(Date.now() - started).toBeLessThan(150);
      expect(w.preference()).toBe('_prefer_nodes:a1,b2');
      // It is still asked, and used again as soon as it answers.
      nodes[2].frozen = false;
      await w.recheck();
      await until(() => w.preference() === undefined, 5_000);
      expect(w.answers(nodes[2].url)).toBe(true);
    } finally {
      w.close();
      for (const n of nodes) n.server.closeAllConnections();
      await Promise.all(nodes.map((n) => new Promise((r) => n.server.close(r))));
    }
  });
});
