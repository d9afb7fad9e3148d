import pino, { type DestinationStream, type Logger } from 'pino';

export type { DestinationStream, Logger };

/**
 * Keys that could carry a guest's contact details, wherever they appear in a log object: never
 * written, at any level (docs/contract.md, booking_intent_tool rule 7; the tool never logs arguments in the first place).
 */
const CONTACT_KEYS = ['email', 'phone', 'args', 'arguments', 'keyValue', 'keyPattern'];
export const REDACTED_PATHS = [...CONTACT_KEYS, ...CONTACT_KEYS.map((k) => `*.${k}`)];

/** One structured logger; JSON lines on stdout (pipe through pino-pretty to read by hand). */
export function createLogger(level: string, name = 'catalog', destination?: DestinationStream): Logger {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
