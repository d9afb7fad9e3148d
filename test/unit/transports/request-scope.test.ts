import Koa from 'koa';
import { requestBounds } from '../../../services/transports/http/request-scope';
import { trustedProxies } from '../../../services/transports/client-address';
import type { RequestScope } from '../../../services/tools/tool';

/** A bounded app whose one handler runs `work` with the request's signal, then answers 200. */
async function app(work: (signal: AbortSignal) => Promise<void>): Promise<{ url: string; close: () => Promise<void> }> {
  const koa = new Koa();
  koa.use(requestBounds({ trust: trustedProxies([]), deadlineMs: 2_000, maxInFlight: 4 }, () => true));
  koa.use(async (ctx) => {
    await work((ctx.state.scope as RequestScope).signal);
    ctx.body = { done: true };
  });
  const server = koa.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/x`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('the request scope', () => {
  it('answers when the work is done, though an abort event was dispatched on a signal that did not abort', async () => {
    const a = await app(async (signal) => {
      await new Promise((r) => setTimeout(r, 20));
      signal.dispatchEvent(new Event('abort'));
      await new Promise((r) => setTimeout(r, 50));
    });
    try {
      const res = await fetch(a.url);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ done: true });
    } finally {
      await a.close();
    }
  });
});
