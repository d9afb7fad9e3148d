import { Writable } from 'node:stream';
import { createLogger, logDestination, type Output } from '../../../services/kernel/logger';

/** An output that keeps what is written to it, a terminal or not. */
function output(isTTY: boolean): { out: Output; text: () => string } {
  const chunks: string[] = [];
  const out = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  return { out, text: () => chunks.join('') };
}

describe('logDestination', () => {
  it('prints a line a person reads (pino-pretty: level word, message, no JSON) when the output is a terminal', () => {
    const { out, text } = output(true);
    createLogger('info', 'service', logDestination(out)).warn({ path: '/readyz' }, 'not ready yet');
    expect(text()).toMatch(/WARN.*\(service\).*not ready yet/);
    // Its fields on lines of their own under it (colour codes around the key).
    expect(text()).toMatch(/\n +\S*path\S*: "\/readyz"/);
    expect(() => JSON.parse(text())).toThrow();
  });

  it('prints an access line as one line on a terminal: method, route, status and time', () => {
    const { out, text } = output(true);
    const line = { reqId: 'r-1', req: { id: 'r-1', method: 'GET' }, route: '/api/public/search', res: { statusCode: 503 }, responseTime: 12 };
    createLogger('info', 'service', logDestination(out)).info(line, 'request failed');
    expect(text()).toMatch(/INFO.*\(service\):.*request failed GET \/api\/public\/search 503 12 ms.*\n$/);
    expect(text().trim().split('\n')).toHaveLength(1);
  });

  it('writes JSON lines when the output is not a terminal (a pipe, a file, a collector)', () => {
    const { out, text } = output(false);
    expect(logDestination(out)).toBe(out);
    createLogger('info', 'service', logDestination(out)).warn({ path: '/readyz' }, 'not ready yet');
    expect(JSON.parse(text())).toMatchObject({ level: 40, name: 'service', msg: 'not ready yet', path: '/readyz' });
  });
});
