import { ApiError, toApiError } from '../../../services/kernel/errors';
import { createLogger } from '../../../services/kernel/logger';
import { failureLog } from '../../../services/transports/failure-log';
import { logSink } from '../../support/log-sink';

/** A failure log on a clock the test moves, and the lines it wrote. */
function logged() {
  const { sink, lines } = logSink();
  let t = 1_000_000;
  const log = failureLog(createLogger('info', 'service', sink), () => t);
  const entries = () => lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { stack?: string } });
  return { log, entries, wait: (ms: number) => (t += ms) };
}

describe('failureLog', () => {
  it('logs the 503s the service answers on purpose once a minute per kind, as a warning with no stack', () => {
    const { log, entries, wait } = logged();
    const notReady = new ApiError('service_unavailable', 'Not ready: elasticsearch (the homes alias points at no index yet).', 503);
    const atCapacity = new ApiError('service_unavailable', 'The service is at capacity; try again shortly.', 503);
    for (let i = 0; i < 20; i++) {
      log(notReady, notReady, { path: '/readyz' });
      log(atCapacity, atCapacity, { path: '/mcp/public' });
      wait(1_000);
    }
    expect(entries().map((e) => [e.level, e.msg])).toEqual([
      [40, notReady.message],
      [40, atCapacity.message],
    ]);
    expect(JSON.stringify(entries())).not.toMatch(/stack/);
    wait(60_000);
    log(notReady, notReady, { path: '/readyz' });
    expect(entries()).toHaveLength(3);
  });

  it('logs a fault as an error with its stack, every time', () => {
    const { log, entries } = logged();
    for (let i = 0; i < 3; i++) {
      const fault = new TypeError('cannot read properties of undefined');
      log(fault, toApiError(fault), { path: '/api/public/search' });
    }
    expect(entries().map((e) => e.level)).toEqual([50, 50, 50]);
    expect(entries()[0].err?.stack).toMatch(/TypeError/);
  });
});
