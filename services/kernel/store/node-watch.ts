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
  /** The store deadline a read has, both attempts together. */
  deadlineMs: number;
  /** `_prefer_nodes:<ids>` of the nodes that answer, while another does not; otherwise undefined. */
  preference(): string | undefined;
  /** Whether to send a request to this node now: false while it does not answer and another does. */
  answers(url: URL | string): boolean;
  /**
   * Asks every node now: after a read that got no answer, so that its second attempt knows of a node
   * that stopped answering since the last round. Waits only for the nodes believed to answer (at most
   * the probe's timeout): one already left out stays out until it answers, so the attempt has
   * nothing to learn from it, and waiting for its silence would take that time from the attempt.
   */
  recheck(): Promise<void>;
  /** Each watched node and whether its last probe answered in time (the metrics); none with one node, which is not watched. */
  seen(): { node: string; answers: boolean }[];
  close(): void;
}

/** A node's key: its origin. The client asks with its connections' parsed URLs on every request: no parse then. */
const keyOf = (url: URL | string): string => (typeof url === 'string' ? new URL(url).origin : url.origin);

interface Seen {
  id: string | null;
  answers: boolean;
  /** When the probe that last wrote `answers` was sent: a probe sent earlier that ends later does not overwrite it. */
  sentAt: number;
}

/**
 * How often to probe and how long to wait, from the store deadline: a node that stops answering is
 * seen within `intervalMs + timeoutMs`, which must come before a read is hedged (at half the
 * deadline, ./es-client.ts), so that the second attempt avoids it.
 */
export function watchTiming(deadlineMs: number): { intervalMs: number; timeoutMs: number; deadlineMs: number } {
  return { intervalMs: Math.min(500, Math.floor(deadlineMs / 4)), timeoutMs: Math.min(400, Math.floor(deadlineMs / 5)), deadlineMs };
}

/** A node URL as fetch takes it: credentials in the URL (`http://user:pass@es:9200`) become a Basic header. */
function probeRequest(url: string): { href: string; headers: Record<string, string> } {
  const u = new URL(url);
  const headers: Record<string, string> = {};
  if (u.username || u.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
    u.username = '';
    u.password = '';
  }
  return { href: `${u.origin}${u.pathname.replace(/\/$/, '')}/_nodes/_local?filter_path=nodes.*.name`, headers };
}

/** Probe every `intervalMs`; a node that does not answer within `timeoutMs` is avoided until it does. */
export function watchNodes(nodes: readonly string[], opts: { intervalMs?: number; timeoutMs?: number; deadlineMs?: number } = {}): NodeWatch {
  const deadlineMs = opts.deadlineMs ?? 2_000;
  if (nodes.length <= 1)
    return {
      several: false,
      deadlineMs,
      preference: () => undefined,
      answers: () => true,
      recheck: async () => undefined,
      seen: () => [],
      close: () => undefined,
    };
  const intervalMs = opts.intervalMs ?? 500;
  const timeoutMs = opts.timeoutMs ?? 400;
  const seen = new Map<string, Seen>(nodes.map((n) => [n, { id: null, answers: true, sentAt: 0 }]));
  const byOrigin = new Map<string, Seen>(nodes.map((n) => [keyOf(n), seen.get(n)!]));
  let someAnswer = true;
  let current: string | undefined;

  // Read after every probe, not at the end of a round: what a probe learnt counts as soon as it ends.
  const settle = (): void => {
    const all = [...seen.values()];
    const answering = all.filter((s) => s.answers && s.id).map((s) => s.id!);
    someAnswer = all.some((s) => s.answers);
    current = answering.length > 0 && all.some((s) => !s.answers) ? `_prefer_nodes:${answering.join(',')}` : undefined;
  };
  const probe = async (url: string): Promise<void> => {
    const s = seen.get(url)!;
    const sentAt = performance.now();
    let answers: boolean;
    let id: string | undefined;
    try {
      const { href, headers } = probeRequest(url);
      const res = await fetch(href, { headers, signal: AbortSignal.timeout(timeoutMs) });
      const body = (await res.json()) as { nodes?: Record<string, unknown> };
      id = Object.keys(body.nodes ?? {})[0];
      answers = res.ok && id !== undefined;
    } catch {
      answers = false;
    }
    if (id) s.id = id;
    // The latest probe sent has the last word (a round's and a recheck's may overlap).
    if (sentAt < s.sentAt) return;
    s.sentAt = sentAt;
    s.answers = answers;
    settle();
  };
  const round = async (): Promise<void> => void (await Promise.all(nodes.map(probe)));
  let running: Promise<void> | null = null;
  const once = (): Promise<void> => (running ??= round().finally(() => (running = null)));
  const timer = setInterval(() => void once(), intervalMs);
  timer.unref();
  void once();
  return {
    several: true,
    deadlineMs,
    preference: () => current,
    answers: (url) => !someAnswer || (byOrigin.get(keyOf(url))?.answers ?? true),
    // A round of its own, now: one under way may have asked before the node stopped.
    recheck: async () => {
      const asked = nodes.map((n) => ({ answered: seen.get(n)!.answers, probe: probe(n) }));
      await Promise.all(asked.filter((a) => a.answered).map((a) => a.probe));
    },
    seen: () => nodes.map((node) => ({ node, answers: seen.get(node)!.answers })),
    close: () => clearInterval(timer),
  };
}
