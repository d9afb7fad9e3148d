import Koa from 'koa';
import { admissionOf, requestBounds } from '../../../services/transports/http/request-scope';
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

describe('admission by weight', () => {
  /** A bounded app (4 units) whose requests wait until released; `?w=N` weighs N, `?grow=N` grows by N once admitted, `?late=N` after the wait. */
  async function weighed(opts: { deadlineMs?: number; maxPerClient?: number } = {}): Promise<{ url: string; release: () => void; close: () => Promise<void> }> {
    let open: () => void = () => undefined;
    let gate = new Promise<void>((r) => (open = r));
    const koa = new Koa();
    koa.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        ctx.status = (err as { status?: number }).status ?? 500;
        ctx.body = { shed: true };
      }
    });
    koa.use(
      requestBounds(
        { trust: trustedProxies([]), deadlineMs: opts.deadlineMs ?? 5_000, maxInFlight: 4, maxPerClient: opts.maxPerClient },
        () => true,
        (ctx) => Number(ctx.query.w ?? 1),
      ),
    );
    koa.use(async (ctx) => {
      const grow = Number(ctx.query.grow ?? 0);
      if (grow) admissionOf(ctx).grow(grow);
      await gate;
      const late = Number(ctx.query.late ?? 0);
      if (late) admissionOf(ctx).grow(late);
      ctx.body = { done: true };
    });
    const server = koa.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}/x`,
      release: () => {
        open();
        gate = new Promise<void>((r) => (open = r));
      },
      close: () => new Promise((r) => server.close(() => r())),
    };
  }
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

  it('holds a request by its weight: a 4-unit search fills a 4-unit copy, and one more read is shed', async () => {
    const a = await weighed();
    try {
      const heavy = fetch(`${a.url}?w=4`);
      await settle();
      expect((await fetch(`${a.url}?w=1`)).status).toBe(503);
      a.release();
      expect((await heavy).status).toBe(200);
      // Released: the units are free again.
      const again = fetch(`${a.url}?w=1`);
      await settle();
      a.release();
      expect((await again).status).toBe(200);
    } finally {
      a.release();
      await a.close();
    }
  });

  it('admits one request on an idle copy whatever its weight, and sheds a message whose body makes it too heavy', async () => {
    const a = await weighed();
    try {
      const heavy = fetch(`${a.url}?w=9`);
      await settle();
      const light = fetch(`${a.url}?w=1`);
      expect((await light).status).toBe(503);
      a.release();
      expect((await heavy).status).toBe(200);
      const first = fetch(`${a.url}?w=1`);
      await settle();
      // Admitted at 1, grows by 3: 1 + 1 + 3 > 4, shed.
      expect((await fetch(`${a.url}?w=1&grow=3`)).status).toBe(503);
      a.release();
      expect((await first).status).toBe(200);
    } finally {
      a.release();
      await a.close();
    }
  });

  it('leaks nothing when a request asks for more after its deadline: the copy is whole again', async () => {
    const a = await weighed({ deadlineMs: 150 });
    try {
      // Four requests past their deadline each try to grow by 3 once their work goes on.
      const late = await Promise.all(Array.from({ length: 4 }, () => fetch(`${a.url}?w=1&late=3`)));
      expect(late.map((r) => r.status)).toEqual([503, 503, 503, 503]);
      a.release();
      await settle();
      const fresh = fetch(`${a.url}?w=4`);
      await settle();
      a.release();
      expect((await fresh).status).toBe(200);
    } finally {
      a.release();
      await a.close();
    }
  });

  it('lets one client hold only its share: past it, 429 with Retry-After, while the copy has room for others', async () => {
    const a = await weighed({ maxPerClient: 2 });
    try {
      const held = fetch(`${a.url}?w=2`);
      await settle();
      const refused = await fetch(`${a.url}?w=1`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      a.release();
      expect((await held).status).toBe(200);
    } finally {
      a.release();
      await a.close();
    }
  });
});
