/** The Elasticsearch time a request's searches spend, metered per request (services/kernel/store/es-time.ts). */
import { metered, noteEsTime, shardMs, unmetered, type EsTimeMeter } from '../../../services/kernel/store/es-time';

describe('shardMs', () => {
  it("is an answer's took times the shards it read, 0 when it says neither", () => {
    expect(shardMs({ took: 7, _shards: { total: 12 } })).toBe(84);
    expect(shardMs({ took: 7, _shards: { total: 1 } })).toBe(7);
    expect(shardMs({})).toBe(0);
  });
});

describe('metered', () => {
  it("adds each search's shard-ms to the meter of the request it runs for, across awaits, and to no other", async () => {
    const a: EsTimeMeter = { shardMs: 0 };
    const b: EsTimeMeter = { shardMs: 0 };
    const search = async (took: number, shards: number) => {
      await new Promise((r) => setTimeout(r, 5));
      noteEsTime([{ took, _shards: { total: shards } }]);
    };
    await Promise.all([
      metered(a, async () => {
        await search(3, 12);
        await search(2, 1);
      }),
      metered(b, () => search(4, 1)),
    ]);
    expect([a.shardMs, b.shardMs]).toEqual([38, 4]);
  });

  it('leaves out what runs unmetered (a read shared by every request), and notes nothing outside a request', async () => {
    const a: EsTimeMeter = { shardMs: 0 };
    await metered(a, () => unmetered(async () => noteEsTime([{ took: 9, _shards: { total: 12 } }])));
    expect(a.shardMs).toBe(0);
    expect(() => noteEsTime([{ took: 1, _shards: { total: 1 } }])).not.toThrow();
  });
});
