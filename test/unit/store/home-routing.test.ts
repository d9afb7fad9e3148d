/** The service's copy of the index's routing keys: a key it holds is used as it is; a market it lacks is asked for again, at most once a second. */
import { homeRouting, routingKeysOfMeta, RoutingKeysCache, type RoutingKeys } from '../../../services/kernel/store/home-routing';

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
    tick: (ms: number) => (clock += ms),
  };
}

describe('routing keys', () => {
  it('routes a market by its key, and a market without one by its slug (as an index built before keys was routed)', () => {
    expect(homeRouting('boston', { boston: 'boston~7' })).toBe('boston~7');
    expect(homeRouting('austin', { boston: 'boston~7' })).toBe('austin');
  });

  it('never takes a name of Object.prototype for a key', () => {
    expect(homeRouting('constructor', {})).toBe('constructor');
    expect(homeRouting('toString', { boston: 'b' })).toBe('toString');
  });

  it("reads the keys of an index mapping's _meta, and none from a _meta without them", () => {
    expect(routingKeysOfMeta({ mapping_version: 'x', routing_keys: { boston: 'boston~7', bad: 3 } })).toEqual({ boston: 'boston~7' });
    expect(routingKeysOfMeta({ mapping_version: 'x' })).toEqual({});
    expect(routingKeysOfMeta(undefined)).toEqual({});
  });

  it('reads the keys once for every market that has one', async () => {
    const w = world({ boston: 'boston~7', austin: 'austin' });
    expect(await Promise.all([w.cache.keyOf('boston'), w.cache.keyOf('austin'), w.cache.keyOf('boston')])).toEqual(['boston~7', 'austin', 'boston~7']);
    expect(w.reads()).toBe(1);
  });

  it('asks again for a market keyed after the copy was read', async () => {
    const w = world({ boston: 'boston~7' });
    expect(await w.cache.keyOf('boston')).toBe('boston~7');
    w.add({ denver: 'denver~3' });
    expect(await w.cache.keyOf('denver')).toBe('denver~3');
    expect(w.reads()).toBe(2);
  });

  it('takes a market without a key at its slug, and reads the keys again for it at most once a second', async () => {
    const w = world({ boston: 'boston~7' });
    expect(await w.cache.keyOf('miami')).toBe('miami');
    expect(await w.cache.keyOf('miami')).toBe('miami');
    expect(w.reads()).toBe(1);
    w.add({ miami: 'miami~2' });
    w.tick(999);
    expect(await w.cache.keyOf('miami')).toBe('miami');
    w.tick(1);
    expect(await w.cache.keyOf('miami')).toBe('miami~2');
    expect(w.reads()).toBe(2);
  });

  it('reads again on every search while it holds no key at all (no index yet, or one routed by slug), so the first keyed index is met at once', async () => {
    const w = world({});
    expect(await w.cache.keyOf('boston')).toBe('boston');
    expect(await w.cache.keyOf('boston')).toBe('boston');
    w.add({ boston: 'boston~7' });
    expect(await w.cache.keyOf('boston')).toBe('boston~7');
    expect(w.reads()).toBe(3);
  });

  it('fails a search whose keys cannot be read, rather than guessing its shard', async () => {
    const cache = new RoutingKeysCache(async () => {
      throw new Error('Elasticsearch is down');
    });
    await expect(cache.keyOf('boston')).rejects.toThrow('Elasticsearch is down');
  });
});
