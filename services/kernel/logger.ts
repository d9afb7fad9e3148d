import pino, { type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';

export type { DestinationStream, Logger };

/**
 * Keys that could carry a guest's contact details, wherever they appear in a log object: never
 * written, at any level (docs/contract.md, booking_intent_tool rule 7; the tool never logs arguments in the first place).
 */
const CONTACT_KEYS = ['email', 'phone', 'args', 'arguments', 'keyValue', 'keyPattern'];
export const REDACTED_PATHS = [...CONTACT_KEYS, ...CONTACT_KEYS.map((k) => `*.${k}`)];

/** Standard output as far as the choice of a log's form goes. */
export type Output = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * Where log lines go: a person at a terminal reads them through pino-pretty (one coloured line each,
 * in the process itself: no worker thread); anything else (a pipe, a file, a collector) gets JSON
 * lines, through pino's own writer (as pino writes by default) when the output is this process's stdout.
 */
export function logDestination(out: Output = process.stdout): DestinationStream {
  if (out.isTTY) return PinoPretty({ destination: out, sync: true, colorize: true, ignore: 'pid,hostname' });
  return out === process.stdout ? pino.destination({ dest: 1 }) : out;
}

/** One structured logger: `destination`, or standard output in the form logDestination chooses. */
export function createLogger(level: string, name = 'catalog', destination: DestinationStream = logDestination()): Logger {
  return pino({ name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
