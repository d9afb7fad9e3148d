/** The threshold algorithm returns exactly the slice a full sort by exact price would (docs/design.md, "Exact prices in search"). */
import fc from 'fast-check';
import { comparePriced, priceOrder, type StreamBatch } from '../../../services/search/shared/price-order';
import { runs } from '../../support/property-runs';

interface Home {
  id: string;
  price: number;
  lo: number;
  hi: number;
}

const arbHomes = fc
  .array(
    // Few distinct prices and many exact bounds, so ties at the slice's edge are common.
    fc.record({
      price: fc.integer({ min: 50, max: 120 }),
      below: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 })),
      above: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 })),
    }),
    { maxLength: 300 },
  )
  .map((xs) => xs.map((x, i): Home => ({ id: `home-${String(i).padStart(4, '0')}`, price: x.price, lo: x.price - x.below, hi: x.price + x.above })));

/** A stream as Elasticsearch sends it: by bound, ties by id, in batches. */
function stream(homes: Home[], order: 'asc' | 'desc') {
  const sorted = [...homes].sort((a, b) => (order === 'asc' ? a.lo - b.lo : b.hi - a.hi) || (a.id < b.id ? -1 : 1));
  let at = 0;
  let fetched = 0;
  const next = async (size: number): Promise<StreamBatch<Home>> => {
    const items = sorted.slice(at, at + size).map((h) => ({ item: h, bound: order === 'asc' ? h.lo : h.hi }));
    at += items.length;
    fetched += items.length;
    return { items, last: at >= sorted.length, total: homes.length };
  };
  return { next, fetched: () => fetched };
}

describe('priceOrder', () => {
  for (const order of ['asc', 'desc'] as const) {
    it(`returns the exact ${order} slice for any page, pricing only what it fetched`, async () => {
      await fc.assert(
        fc.asyncProperty(
          arbHomes,
          fc.integer({ min: 0, max: 320 }),
          fc.integer({ min: 1, max: 40 }),
          fc.integer({ min: 1, max: 60 }),
          async (homes, offset, size, first) => {
            const s = stream(homes, order);
            // Small batches put batch edges everywhere, ties at the threshold included.
            const result = await priceOrder(order, offset, size, s.next, (h) => ({ id: h.id, price: h.price }), { first, max: first * 2 });
            const expected = homes
              .map((h) => ({ id: h.id, price: h.price }))
              .sort(comparePriced(order))
              .slice(offset, offset + size);
            expect(result.slice.map((p) => ({ id: p.id, price: p.price }))).toEqual(expected);
            expect(result.priced).toBeLessThanOrEqual(s.fetched());
          },
        ),
        { numRuns: runs(400) },
      );
    });
  }

  it('stops early when the bounds are tight: a first page prices far fewer homes than there are', async () => {
    const homes: Home[] = Array.from({ length: 2_000 }, (_, i) => ({
      id: `h${String(i).padStart(5, '0')}`,
      price: 1_000 + i,
      lo: 1_000 + i - 5,
      hi: 1_000 + i + 5,
    }));
    const s = stream(homes, 'asc');
    const result = await priceOrder('asc', 0, 25, s.next, (h) => ({ id: h.id, price: h.price }));
    expect(result.slice.map((p) => p.price)).toEqual(homes.slice(0, 25).map((h) => h.price));
    expect(result.priced).toBeLessThan(200);
  });

  it('prices a batch only up to the threshold: the rest of the batch is never priced', async () => {
    const homes: Home[] = Array.from({ length: 200 }, (_, i) => ({
      id: `h${String(i).padStart(5, '0')}`,
      price: 1_000 + i,
      lo: 1_000 + i - 5,
      hi: 1_000 + i + 5,
    }));
    const asked: string[] = [];
    const result = await priceOrder('asc', 0, 25, stream(homes, 'asc').next, (h) => (asked.push(h.id), { id: h.id, price: h.price }), { first: 150 });
    expect(result.slice.map((p) => p.id)).toEqual(homes.slice(0, 25).map((h) => h.id));
    // The 25th price is 1,024; the first bound past it is home 30's (1,025): homes 0-29 are priced, no more.
    expect(asked).toEqual(homes.slice(0, 30).map((h) => h.id));
    expect(result.priced).toBe(30);
  });

  it('keeps streaming while an unseen home could tie the edge price and win on its id', async () => {
    const homes: Home[] = [
      { id: 'h3', price: 100, lo: 90, hi: 100 },
      { id: 'h1', price: 105, lo: 100, hi: 105 },
      { id: 'h2', price: 100, lo: 100, hi: 100 },
    ];
    const result = await priceOrder('asc', 0, 1, stream(homes, 'asc').next, (h) => ({ id: h.id, price: h.price }), { first: 2 });
    expect(result.slice.map((p) => p.id)).toEqual(['h2']);
  });

  it('answers an empty slice at once when none is asked for', async () => {
    const s = stream([{ id: 'a', price: 1, lo: 1, hi: 1 }], 'asc');
    expect(await priceOrder('asc', 0, 0, s.next, (h) => ({ id: h.id, price: h.price }))).toEqual({ slice: [], priced: 0 });
  });

  it('answers an empty slice at once past the end', async () => {
    const s = stream([{ id: 'a', price: 1, lo: 1, hi: 1 }], 'asc');
    expect((await priceOrder('asc', 40, 40, s.next, (h) => ({ id: h.id, price: h.price }))).slice).toEqual([]);
  });
});
