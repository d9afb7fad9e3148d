/** What a watch reports for some homes (services/watches/diff.ts): entered, left, a drop of 5 % or more, and the price kept. */
import { diffMatches, type NowMatching } from '../../../services/watches/diff';

const now = (homeId: string, price: number): NowMatching => ({ homeId, slug: `slug-${homeId}`, price, card: { slug: `slug-${homeId}` } });

describe('diffMatches', () => {
  it('reports entered, left and a drop of 5 % or more, nothing for a smaller drop or a rise, and keeps the latest price', () => {
    const before = new Map([
      ['a', { slug: 'slug-a', price: 1000 }],
      ['b', { slug: 'slug-b', price: 1000 }],
      ['c', { slug: 'slug-c', price: 1000 }],
      ['d', { slug: 'slug-d', price: 1000 }],
    ]);
    const diff = diffMatches(['a', 'b', 'c', 'd', 'e', 'f'], before, [now('a', 950), now('b', 951), now('c', 1200), now('e', 500)]);
    expect(diff.changes.map((c) => `${c.kind} ${c.home_slug} ${c.price}`)).toEqual(['price_dropped slug-a 950', 'left slug-d null', 'entered slug-e 500']);
    expect([...diff.hold]).toEqual([
      ['a', { slug: 'slug-a', price: 950 }],
      ['b', { slug: 'slug-b', price: 951 }],
      ['c', { slug: 'slug-c', price: 1200 }],
      ['e', { slug: 'slug-e', price: 500 }],
    ]);
    expect(diff.release).toEqual(['d']);
  });

  it('looks only at the homes it is given', () => {
    const diff = diffMatches(['a'], new Map([['z', { slug: 'slug-z', price: 1 }]]), [now('a', 10), now('y', 10)]);
    expect(diff.changes.map((c) => c.home_slug)).toEqual(['slug-a']);
    expect(diff.release).toEqual([]);
  });
});
