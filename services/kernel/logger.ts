import pino, { type Logger } from 'pino';

export type { Logger };

/** One structured logger; JSON lines on stdout (pipe through pino-pretty to read by hand). */
export function createLogger(level: string, name = 'catalog'): Logger {
  return pino({ name, level });
}
