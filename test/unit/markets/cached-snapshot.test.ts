import { cachedSnapshot } from '../../../services/markets/market-directory';

describe('cachedSnapshot (markets, policies)', () => {
  it('keeps a snapshot for its time to live, however many calls ask', async () => {
    let loads = 0;
    const current = cachedSnapshot(
      async () => ({ n: ++loads, items: ['austin'] }),
      60_000,
      (s) => s.items.length === 0,
    );
    expect((await current()).n).toBe(1);
    expect((await current()).n).toBe(1);
    expect(loads).toBe(1);
  });

  it('does not keep an empty collection: the first records written are served on the next call', async () => {
    const store: string[] = [];
    let loads = 0;
    const current = cachedSnapshot(
      async () => ({ n: ++loads, items: [...store] }),
      60_000,
      (s) => s.items.length === 0,
    );
    expect((await current()).items).toEqual([]);
    expect((await current()).items).toEqual([]);
    store.push('austin'); // the demo seed (or an import) writes while the service already answers
    expect((await current()).items).toEqual(['austin']);
    store.push('boston');
    expect((await current()).items).toEqual(['austin']); // from now on kept for the time to live
    expect(loads).toBe(3);
  });

  it('answers the last good snapshot while the store fails', async () => {
    let fail = false;
    let loads = 0;
    const current = cachedSnapshot(
      async () => {
        if (fail) throw new Error('store down');
        return { n: ++loads, items: ['austin'] };
      },
      20,
      (s) => s.items.length === 0,
    );
    expect((await current()).n).toBe(1);
    fail = true;
    await new Promise((r) => setTimeout(r, 40));
    expect((await current()).n).toBe(1);
  });
});
