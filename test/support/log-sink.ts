/** A pino destination that keeps every line it is given, for tests that read the log. */
import { Writable } from 'node:stream';

export function logSink(): { sink: Writable; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { sink, lines };
}
