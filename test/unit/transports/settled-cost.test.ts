/** What an answer owes beyond its admitted weight (docs/decisions.md, "Rate limits": cost-settled). */
import { BYTES_PER_POINT, owedPoints } from '../../../services/transports/settled-cost';

describe('owedPoints', () => {
  it('owes nothing while the answer fits its weight, then a point per started BYTES_PER_POINT beyond it', () => {
    expect(owedPoints(0, 1)).toBe(0);
    expect(owedPoints(2 * BYTES_PER_POINT, 2)).toBe(0);
    expect(owedPoints(2 * BYTES_PER_POINT + 1, 2)).toBe(1);
    // 1,000 building cards over the country (~2 MB) at the building search's weight of 4.
    expect(owedPoints(2_160_000, 4)).toBe(Math.ceil(2_160_000 / BYTES_PER_POINT) - 4);
  });
});

describe('owedPoints with Elasticsearch time', () => {
  const ms = (shardMs: number) => ({ shardMs, msPerPoint: 16 });

  it('owes a point per started msPerPoint shard-ms beyond the weight', () => {
    expect(owedPoints(1_000, 2, ms(32))).toBe(0);
    expect(owedPoints(1_000, 2, ms(33))).toBe(1);
    // A polygon over 12 shards at 8 ms each: 96 shard-ms, 6 points, 4 beyond the search's weight.
    expect(owedPoints(1_000, 2, ms(12 * 8))).toBe(4);
  });

  it('pays for the larger of bytes and shard-ms, not both: a point buys some of each', () => {
    expect(owedPoints(3 * BYTES_PER_POINT, 2, ms(3 * 16))).toBe(1);
    expect(owedPoints(5 * BYTES_PER_POINT, 2, ms(3 * 16))).toBe(3);
    expect(owedPoints(BYTES_PER_POINT, 2, ms(5 * 16))).toBe(3);
  });
});
