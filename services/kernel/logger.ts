import pino, { type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';
import { activeTraceId } from './tracing';

export type { DestinationStream, Logger };

/**
 * Keys that could carry a guest's contact details, wherever they appear in a log object: never
 * written, at any level (docs/contract.md, booking_intent_tool rule 7; the tool never logs arguments in the first place).
 */
const CONTACT_KEYS = ['email', 'phone', 'args', 'arguments', 'keyValue', 'keyPattern'];
export const REDACTED_PATHS = [...CONTACT_KEYS, ...CONTACT_KEYS.map((k) => `*.${k}`)];

/** Standard output as far as the choice of a log's form goes. */
export type Output = NodeJS.WritableStream & { isTTY?: boolean };

/** The keys of an access line (transports/http/request-log.ts), said in its message on a terminal. */
const ACCESS_KEYS = ['reqId', 'req', 'res', 'route', 'responseTime'];

/** An access line as one line a person reads (`request GET /api/public/search 503 12 ms`); any other as it is. */
function terminalMessage(line: Record<string, unknown>, messageKey: string): string {
  const message = String(line[messageKey] ?? '');
  const req = line.req as { method?: string } | undefined;
  const res = line.res as { statusCode?: number } | undefined;
  if (!req || !res) return message;
  return `${message} ${req.method ?? ''} ${String(line.route ?? '')} ${res.statusCode ?? ''} ${String(line.responseTime ?? '')} ms`;
}

/**
 * Where log lines go: a person at a terminal reads them through pino-pretty (one coloured line each,
 * in the process itself: no worker thread); anything else (a pipe, a file, a collector) gets JSON
 * lines, through pino's own writer (as pino writes by default) when the output is this process's stdout.
 */
export function logDestination(out: Output = process.stdout): DestinationStream {
  if (out.isTTY) {
    return PinoPretty({ destination: out, sync: true, colorize: true, ignore: `pid,hostname,${ACCESS_KEYS.join(',')}`, messageFormat: terminalMessage });
  }
  return out === process.stdout ? pino.destination({ dest: 1 }) : out;
}

/** One structured logger: `destination`, or standard output in the form logDestination chooses. */
export function createLogger(level: string, name = 'catalog', destination: DestinationStream = logDestination()): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, mixin: traceOfLine }, destination);
}

/**
 * A line written under a recorded span carries its trace id (`trace_id`); nothing while tracing is off. A request
 * whose trace is not sampled runs under no span: its access and failure lines name its trace themselves.
 */
function traceOfLine(): { trace_id?: string } {
  const traceId = activeTraceId();
  return traceId === undefined ? {} : { trace_id: traceId };
}
