/** The service's copy of the indexer's routing keys: a key it holds is used as it is; a market it lacks is asked for again. */
import { homeRouting, RoutingKeysCache, type RoutingKeys } from '../../../services/kernel/store/home-routing';

function world(initial: RoutingKeys) {
  let stored: RoutingKeys = initial;
  let reads = 0;
  let clock = 0;
  const cache = new RoutingKeysCache(
    async () => {
      reads += 1;
      return stored;
    },
    () => clock,
  );
  return {
    cache,
    reads: () => reads,
    add: (keys: RoutingKeys) => (stored = { ...stored, ...keys }),
    replace: (keys: RoutingKeys) => (stored = keys),
    tick: (ms: number) => (clock += ms),
  };
}

describe('routing keys', () => {
  it('routes a market by its key, and a market without one by its slug', () => {
    expect(homeRouting('boston', { boston: 'boston~7' })).toBe('boston~7');
    expect(homeRouting('austin', { boston: 'boston~7' })).toBe('austin');
  });

  it('reads the keys once for every market that has one', async () => {
    const w = world({ boston: 'boston~7', austin: 'austin' });
    expect(await Promise.all([w.cache.keyOf('boston'), w.cache.keyOf('austin'), w.cache.keyOf('boston')])).toEqual(['boston~7', 'austin', 'boston~7']);
    expect(w.reads()).toBe(1);
  });

  it('asks again for a market the indexer keyed after the copy was read', async () => {
    const w = world({ boston: 'boston~7' });
    expect(await w.cache.keyOf('boston')).toBe('boston~7');
    w.add({ denver: 'denver~3' });
    expect(await w.cache.keyOf('denver')).toBe('denver~3');
    expect(w.reads()).toBe(2);
  });

  it('takes a market without a key at its slug, asking MongoDB again each time until the indexer keys it', async () => {
    const w = world({ boston: 'boston~7' });
    expect(await w.cache.keyOf('miami')).toBe('miami');
    expect(await w.cache.keyOf('miami')).toBe('miami');
    expect(w.reads()).toBe(2);
    w.add({ miami: 'miami~2' });
    expect(await w.cache.keyOf('miami')).toBe('miami~2');
    expect(await w.cache.keyOf('miami')).toBe('miami~2');
    expect(w.reads()).toBe(3);
  });

  it('follows keys given anew (the indexer lost its state and rebuilt) within a minute, reading in the background', async () => {
    const w = world({ boston: 'boston~7' });
    expect(await w.cache.keyOf('boston')).toBe('boston~7');
    w.replace({ boston: 'boston~2' });
    w.tick(59_999);
    expect(await w.cache.keyOf('boston')).toBe('boston~7');
    expect(w.reads()).toBe(1);
    w.tick(1);
    expect(await w.cache.keyOf('boston')).toBe('boston~7');
    await new Promise((r) => setImmediate(r));
    expect(await w.cache.keyOf('boston')).toBe('boston~2');
    expect(w.reads()).toBe(2);
  });

  it('fails a search whose key cannot be read, rather than guessing its shard', async () => {
    const cache = new RoutingKeysCache(async () => {
      throw new Error('MongoDB is down');
    });
    await expect(cache.keyOf('boston')).rejects.toThrow('MongoDB is down');
  });
});
