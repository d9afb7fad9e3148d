import { AggregateCache } from '../../../services/markets/aggregate-cache';

describe('AggregateCache', () => {
  it('shares one load between concurrent requests for the same key and keeps keys apart', async () => {
    const cache = new AggregateCache(60_000);
    let loads = 0;
    const load = (v: string) => async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 10));
      return { v };
    };
    const [a, b, c] = await Promise.all([cache.get('x', load('1')), cache.get('x', load('2')), cache.get('y', load('3'))]);
    expect([a.v, b.v, c.v]).toEqual(['1', '1', '3']);
    expect(loads).toBe(2);
  });

  it('loads again once the time to live has passed', async () => {
    const cache = new AggregateCache(20);
    let n = 0;
    const load = async () => ({ n: ++n });
    expect((await cache.get('k', load)).n).toBe(1);
    expect((await cache.get('k', load)).n).toBe(1);
    await new Promise((r) => setTimeout(r, 40));
    expect((await cache.get('k', load)).n).toBe(2);
  });

  it('does not keep a failed load: the caller gets the error and the next call tries again', async () => {
    const cache = new AggregateCache(60_000);
    await expect(cache.get('k', async () => Promise.reject(new Error('es down')))).rejects.toThrow('es down');
    expect(await cache.get('k', async () => ({ ok: true }))).toEqual({ ok: true });
  });
});
