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
