/**
 * Which Elasticsearch nodes answer right now, for searches to stay off one that does not. A node
 * that hangs (frozen, a long pause) is not taken out of the cluster for tens of seconds, and until
 * then any search may pick its copy of a shard and wait with it; adaptive replica selection forgets
 * it as soon as a search that waited is cancelled. So each copy of the service asks every node of
 * ES_URL for its id a few times a second, and while one does not answer in time, searches carry
 * `preference=_prefer_nodes:<the others>`: every shard is read from a copy on a node that answers
 * when there is one (docs/decisions.md, "Scale-out"). With one node there is nothing to prefer.
 */

export interface NodeWatch {
  /** Whether ES_URL names several nodes (a search that gets no answer is then sent again). */
  several: boolean;
  /** `_prefer_nodes:<ids>` of the nodes that answer, while another does not; otherwise undefined. */
  preference(): string | undefined;
  /** Whether to send a request to this node now: false while it does not answer and another does. */
  answers(url: URL | string): boolean;
  close(): void;
}

const keyOf = (url: URL | string): string => new URL(String(url)).origin;

interface Seen {
  id: string | null;
  answers: boolean;
}

/** Probe every `intervalMs`; a node that does not answer within `timeoutMs` is avoided until it does. */
export function watchNodes(nodes: readonly string[], opts: { intervalMs?: number; timeoutMs?: number } = {}): NodeWatch {
  if (nodes.length <= 1) return { several: false, preference: () => undefined, answers: () => true, close: () => undefined };
  const intervalMs = opts.intervalMs ?? 500;
  const timeoutMs = opts.timeoutMs ?? 400;
  const seen = new Map<string, Seen>(nodes.map((n) => [n, { id: null, answers: true }]));
  const byOrigin = new Map<string, Seen>(nodes.map((n) => [keyOf(n), seen.get(n)!]));
  let someAnswer = true;
  let current: string | undefined;

  const probe = async (url: string): Promise<void> => {
    const s = seen.get(url)!;
    try {
      const res = await fetch(`${url.replace(/\/$/, '')}/_nodes/_local?filter_path=nodes.*.name`, { signal: AbortSignal.timeout(timeoutMs) });
      const body = (await res.json()) as { nodes?: Record<string, unknown> };
      const id = Object.keys(body.nodes ?? {})[0];
      s.answers = res.ok && id !== undefined;
      if (id) s.id = id;
    } catch {
      s.answers = false;
    }
  };
  const round = async (): Promise<void> => {
    await Promise.all(nodes.map(probe));
    const all = [...seen.values()];
    const answering = all.filter((s) => s.answers && s.id).map((s) => s.id!);
    someAnswer = all.some((s) => s.answers);
    current = answering.length > 0 && answering.length < all.length ? `_prefer_nodes:${answering.join(',')}` : undefined;
  };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void round().finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  void round();
  return {
    several: true,
    preference: () => current,
    answers: (url) => !someAnswer || (byOrigin.get(keyOf(url))?.answers ?? true),
    close: () => clearInterval(timer),
  };
}
