import fc from 'fast-check';
import { buildingsInPriceOrder } from '../../../services/search/buildings/building-order';

/** Units as (building, price), sorted by price (ties by position), as the exact price stream yields them. */
const unitsArb = fc.array(fc.record({ building: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), price: fc.integer({ min: 1, max: 50 }) }), { maxLength: 40 });

function naiveOrder(units: Array<{ building: string; price: number }>, order: 'asc' | 'desc'): string[] {
  const min = new Map<string, number>();
  for (const u of units) min.set(u.building, Math.min(min.get(u.building) ?? Infinity, u.price));
  return [...min.entries()].sort((x, y) => (order === 'asc' ? x[1] - y[1] : y[1] - x[1])).map(([b]) => b);
}

describe('buildingsInPriceOrder', () => {
  it.each(['asc', 'desc'] as const)('orders buildings by their cheapest unit (%s), from the whole stream', (order) => {
    fc.assert(
      fc.property(unitsArb, (units) => {
        // Distinct prices make the expected order unique.
        const distinct = units.map((u, i) => ({ ...u, price: u.price * 100 + i }));
        const stream = [...distinct].sort((a, b) => (order === 'asc' ? a.price - b.price : b.price - a.price));
        const counts = new Map<string, number>();
        for (const u of stream) counts.set(u.building, (counts.get(u.building) ?? 0) + 1);
        expect(
          buildingsInPriceOrder(
            stream.map((u) => u.building),
            order,
            counts,
          ),
        ).toEqual(naiveOrder(distinct, order));
      }),
    );
  });

  it.each(['asc', 'desc'] as const)('places from a prefix of the stream only buildings whose place is final (%s)', (order) => {
    fc.assert(
      fc.property(unitsArb, fc.nat(), (units, cut) => {
        const distinct = units.map((u, i) => ({ ...u, price: u.price * 100 + i }));
        const stream = [...distinct].sort((a, b) => (order === 'asc' ? a.price - b.price : b.price - a.price));
        const counts = new Map<string, number>();
        for (const u of stream) counts.set(u.building, (counts.get(u.building) ?? 0) + 1);
        const prefix = stream.slice(0, stream.length ? cut % (stream.length + 1) : 0).map((u) => u.building);
        const placed = buildingsInPriceOrder(prefix, order, counts);
        expect(placed).toEqual(naiveOrder(distinct, order).slice(0, placed.length));
      }),
    );
  });

  it('places a building descending only once all of its matching units were seen', () => {
    expect(
      buildingsInPriceOrder(
        ['a', 'b', 'a'],
        'desc',
        new Map([
          ['a', 2],
          ['b', 2],
        ]),
      ),
    ).toEqual(['a']);
    expect(
      buildingsInPriceOrder(
        ['a', 'b', 'a'],
        'asc',
        new Map([
          ['a', 2],
          ['b', 2],
        ]),
      ),
    ).toEqual(['a', 'b']);
  });
});
