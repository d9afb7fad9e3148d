import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { watchNodes } from '../../../services/kernel/store/node-watch';

/** A stand-in for one node's `GET /_nodes/_local`: answers with its id, or holds every request while frozen. */
async function node(id: string): Promise<{ url: string; frozen: boolean; server: Server }> {
  const state = { url: '', frozen: false, server: createServer() };
  state.server.on('request', (req, res) => {
    if (state.frozen) return; // no answer, like a process stopped with SIGSTOP
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
    const nodes = await Promise.all(['a1', 'b2', 'c3'].map(node));
    const w = watchNodes(nodes.map((n) => n.url), { intervalMs: 50, timeoutMs: 40 });
    try {
      await new Promise((r) => setTimeout(r, 150));
      expect(w.preference()).toBeUndefined();
      nodes[2].frozen = true;
      await until(() => w.preference() !== undefined);
      expect(w.preference()).toBe('_prefer_nodes:a1,b2');
      expect(w.answers(new URL(`${nodes[2].url}/`))).toBe(false);
      expect(w.answers(nodes[0].url)).toBe(true);
      nodes[2].frozen = false;
      await until(() => w.preference() === undefined);
      expect(w.answers(nodes[2].url)).toBe(true);
    } finally {
      w.close();
      for (const n of nodes) n.server.closeAllConnections();
      await Promise.all(nodes.map((n) => new Promise((r) => n.server.close(r))));
    }
  });

  it('when no node answers, leaves none out (the requests then fail on their own deadline)', async () => {
    const nodes = await Promise.all(['a1', 'b2'].map(node));
    const w = watchNodes(nodes.map((n) => n.url), { intervalMs: 50, timeoutMs: 40 });
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
});
