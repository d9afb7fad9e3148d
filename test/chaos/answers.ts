/**
 * What the fault run keeps of each answer, how an answer is judged, and the figures of a window of
 * the run (pure: unit-tested in test/unit/chaos/answers.test.ts).
 */
import { percentile } from '../bench/load';

/**
 * - `ok`: a 2xx with a result, or a tool result that is a business error (an unknown slug's not_found):
 *   the service answered what it should;
 * - `unavailable`: the service's own 503 (`service_unavailable`, on GET with Retry-After; on the tool
 *   server an isError result with that code): a store it needs is down;
 * - `server_error`: any other 5xx (the load balancer's own 502/503/504 among them);
 * - `timeout`, `error`: no answer within the client's time, or no answer at all.
 */
export type Outcome = 'ok' | 'unavailable' | 'server_error' | 'timeout' | 'error';

export interface Answer {
  /** Start of the request, ms since the run began. */
  at: number;
  ms: number;
  kind: 'read' | 'write';
  transport: 'get' | 'mcp';
  tool: string;
  status: number;
  outcome: Outcome;
  /** A 503 that says when to come back. */
  retryAfter: boolean;
  /** For an answer that is not `ok`: its error message, or what the client saw. */
  detail?: string;
}

/** A read that did not get its answer: anything but `ok`. */
export const failedRead = (a: Answer): boolean => a.kind === 'read' && a.outcome !== 'ok';

/** The outcome of an HTTP answer, from its status, body and headers. */
export function judge(transport: 'get' | 'mcp', status: number, body: unknown): Outcome {
  if (status >= 500) return status === 503 && errorCode(body) === 'service_unavailable' ? 'unavailable' : 'server_error';
  if (transport === 'mcp' && status === 200) {
    const result = (body as { result?: { isError?: boolean; content?: Array<{ text?: string }> } } | null)?.result;
    if (!result) return 'server_error';
    if (result.isError) {
      const code = errorCode(safeJson(result.content?.[0]?.text ?? ''));
      if (code === 'service_unavailable') return 'unavailable';
      if (code === 'internal_error') return 'server_error';
    }
  }
  return 'ok';
}

/** The error message an answer carries (GET error object, or a tool result's), if any. */
export function errorMessage(body: unknown): string | undefined {
  const direct = (body as { error?: { message?: unknown } } | null)?.error?.message;
  if (typeof direct === 'string') return direct;
  const text = (body as { result?: { content?: Array<{ text?: string }> } } | null)?.result?.content?.[0]?.text;
  const inner = text ? (safeJson(text) as { error?: { message?: unknown } } | null)?.error?.message : undefined;
  return typeof inner === 'string' ? inner : undefined;
}

function errorCode(body: unknown): string | undefined {
  return (body as { error?: { code?: unknown } } | null)?.error?.code as string | undefined;
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export interface WindowFigures {
  requests: number;
  byOutcome: Record<string, number>;
  byStatus: Record<string, number>;
  failedReads: number;
  /** Failed reads of tools that do not need MongoDB (fault 5 allows only the others). */
  failedReadsNotNeedingMongo: number;
  /** 503s from the service without Retry-After. */
  unavailableWithoutRetryAfter: number;
  p50: number;
  p99: number;
  /** End of the last failed read, ms after the window's start (null: none failed). */
  lastFailureAfter: number | null;
  /** Failed reads by tool, transport and outcome, with one message seen: "search_apartments_tool get unavailable". */
  failures: Record<string, { count: number; detail: string }>;
}

/** When an answer came (or the client gave up): ms since the run began. */
export const endOf = (a: Answer): number => a.at + a.ms;

/**
 * The answers that came in [from, to). A request belongs to the window in which it ended, not the one
 * in which it began: a read in flight when the next fault struck (a copy killed under it) failed
 * because of that fault, and is judged by its target.
 */
export function figures(answers: readonly Answer[], from: number, to: number, needsMongo: ReadonlySet<string>): WindowFigures {
  const inside = answers.filter((a) => endOf(a) >= from && endOf(a) < to);
  const byOutcome: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  let failedReads = 0;
  let failedReadsNotNeedingMongo = 0;
  let unavailableWithoutRetryAfter = 0;
  let last: number | null = null;
  const failures: WindowFigures['failures'] = {};
  for (const a of inside) {
    byOutcome[a.outcome] = (byOutcome[a.outcome] ?? 0) + 1;
    const key = a.status > 0 ? String(a.status) : a.outcome;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
    if (a.outcome === 'unavailable' && a.transport === 'get' && !a.retryAfter) unavailableWithoutRetryAfter += 1;
    if (failedRead(a)) {
      failedReads += 1;
      if (!needsMongo.has(a.tool)) failedReadsNotNeedingMongo += 1;
      last = Math.max(last ?? 0, endOf(a) - from);
      const key = `${a.tool} ${a.transport} ${a.outcome}`;
      failures[key] = { count: (failures[key]?.count ?? 0) + 1, detail: failures[key]?.detail ?? a.detail ?? '' };
    }
  }
  const latencies = inside.map((a) => a.ms).sort((x, y) => x - y);
  return {
    requests: inside.length,
    byOutcome,
    byStatus,
    failedReads,
    failedReadsNotNeedingMongo,
    unavailableWithoutRetryAfter,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    lastFailureAfter: last,
    failures,
  };
}
