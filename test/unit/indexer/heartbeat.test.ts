import { bulkHeartbeat } from '../../../indexer/heartbeat';

describe('bulkHeartbeat', () => {
  it('beats at most once per interval while the bulk load runs', () => {
    let beats = 0;
    const hb = bulkHeartbeat(async () => {
      beats += 1;
    }, 0);
    hb.tick();
    expect(beats).toBeLessThanOrEqual(1);
    const slow = bulkHeartbeat(async () => {
      beats += 100;
    }, 60_000);
    slow.tick();
    slow.tick();
    expect(beats).toBeLessThan(100);
  });

  it('raises a lost lease at check(), before the run commits', async () => {
    const hb = bulkHeartbeat(async () => {
      throw new Error('lease lost');
    }, -1);
    hb.tick();
    await new Promise((r) => setImmediate(r));
    await expect(hb.check()).rejects.toThrow('lease lost');
  });

  it('is a no-op without a heartbeat', async () => {
    const hb = bulkHeartbeat(undefined);
    hb.tick();
    await expect(hb.check()).resolves.toBeUndefined();
  });
});
