/** The facets' Elasticsearch requests and their price buckets, pinned by their output (docs/contract.md, "Facets"). */
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { countedOnOwnQuery, facetAggs, facetCountBody, facetScope } from '../../../services/search/apartments/facet-aggs';
import { bandSpread, drawEdges, edgeQuantum, priceBuckets } from '../../../services/search/apartments/facet-price-edges';
import { MAX_PRICE_BUCKETS } from '../../../services/kernel/limits/facets';
import { bucketOf, priceCountBody } from '../../../services/search/apartments/facet-price-counts';
import { matchClauses } from '../../../services/search/shared/search-body';
import type { SearchParams } from '../../../services/search/shared/search-params';

const market = { slug: 'boston', cities: [] } as unknown as MarketRecord;
const fixed = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 } as const;
const search: SearchParams = {
  location: { market, city: null },
  filters: { min_bedrooms: 1, max_bedrooms: 2, parking: true },
  stay: fixed,
  price: { min: 2_000, max: 4_000 },
  minRating: 4,
  sort: 'price_asc',
};
const BEDROOMS = { range: { bedrooms: { gte: 1, lte: 2 } } };
const RATING = { range: { rating_average: { gte: 4 } } };

describe('facetScope', () => {
  it('keeps every clause of the search but its bedroom bounds, rating threshold and price limits, and gives those apart', () => {
    const s = facetScope(search, ['h9']);
    expect(s.base).toEqual(matchClauses({ ...search, filters: { parking: true }, minRating: null, price: { min: null, max: null } }));
    expect(s.bedrooms).toEqual([BEDROOMS]);
    expect(s.rating).toEqual([RATING]);
    // A fixed stay's limits: bounds inside them, or one of the straddlers that passed.
    expect(JSON.stringify(s.price)).toContain('"home_id":["h9"]');
  });
});

describe('facetCountBody', () => {
  it("counts each facet on a query of the search's clauses without the three a facet drops, with no global bucket", () => {
    const s = facetScope(search, ['h9']);
    expect(countedOnOwnQuery(s)).toBe(false);
    const body = facetCountBody(search, s);
    expect(body.query).toEqual({ bool: { filter: s.base } });
    expect(body).toMatchObject({ size: 0, track_total_hits: false });
    expect(JSON.stringify(body)).not.toContain('"global"');
    const facets = body.aggs!.facets as { filter: unknown; aggs: Record<string, { filter?: unknown; filters?: { filters: Record<string, unknown> } }> };
    expect(facets.filter).toEqual({ match_all: {} });
    const sub = facets.aggs;
    expect(Object.keys(sub.filters.filters!.filters)).toHaveLength(13);
    expect(sub.filters.filters!.filters.pool).toEqual({
      bool: { filter: [BEDROOMS, RATING, ...s.price, { term: { has_pool: true } }] },
    });
    expect(sub.bedrooms.filter).toEqual({ bool: { filter: [RATING, ...s.price] } });
    expect(sub.guest_rating.filter).toEqual({ bool: { filter: [BEDROOMS, ...s.price] } });
    expect(sub.price.filter).toEqual({ bool: { filter: [BEDROOMS, RATING] } });
  });
});

describe('facetAggs of a search with no bedroom bounds, rating threshold or price limits', () => {
  it("count over the search's own hits: no global bucket, no second pass over the shard", () => {
    const plain: SearchParams = { ...search, filters: { parking: true }, price: { min: null, max: null }, minRating: null };
    const s = facetScope(plain, undefined);
    expect(countedOnOwnQuery(s)).toBe(true);
    const facets = facetAggs(plain, s).facets as { filter?: unknown; global?: unknown; aggs: Record<string, { filter?: unknown }> };
    expect(facets.global).toBeUndefined();
    expect(facets.filter).toEqual({ match_all: {} });
    expect(facets.aggs.bedrooms.filter).toEqual({ bool: { filter: [] } });
  });
});

describe('price buckets', () => {
  it('are at most twelve of one round width, from below the least price to above the greatest, on the quantum', () => {
    for (const [min, max] of [
      [109, 402],
      [1_903, 6_859],
      [40, 41],
      [0, 99_999],
    ]) {
      const edges = drawEdges({ min, max }, 5);
      expect(edges.length - 1).toBeLessThanOrEqual(MAX_PRICE_BUCKETS);
      expect(edges[0]).toBeLessThanOrEqual(min);
      expect(edges[edges.length - 1]).toBeGreaterThan(max);
      for (const e of edges) expect(e % 5).toBe(0);
    }
    // 25 would take 13 buckets: 50 it is.
    expect(drawEdges({ min: 109, max: 402 }, 5)).toEqual([100, 150, 200, 250, 300, 350, 400, 450]);
  });

  it('for a fixed stay, move an inner edge to where the fewest price bounds straddle it', () => {
    // Ten homes bounded 245-249 below and 250-254 above straddle 250, but neither 245 nor 255.
    const spread = bandSpread(
      [
        { key: 100, doc_count: 5 },
        { key: 245, doc_count: 10 },
      ],
      [
        { key: 100, doc_count: 5 },
        { key: 250, doc_count: 10 },
        { key: 260, doc_count: 1 },
      ],
      5,
    );
    expect(spread?.straddlers?.(250)).toBe(10);
    expect(spread?.straddlers?.(245)).toBe(0);
    const edges = drawEdges(spread!, 5);
    expect(edges).toEqual([100, 125, 150, 175, 200, 225, 245, 275]);
  });

  it('drop the most straddled edges while more homes than the facet may price straddle them: fewer, wider buckets, never inexact', () => {
    // Each home bounded across one 20-dollar step: at every multiple of 10 but the ends, some straddle.
    const lo = Array.from({ length: 20 }, (_, i) => ({ key: 100 + 10 * i, doc_count: 3 + (i % 4) }));
    const hi = lo.map((b) => ({ key: b.key + 10, doc_count: b.doc_count }));
    const spread = bandSpread(lo, hi, 5)!;
    const all = drawEdges(spread, 5);
    const capped = drawEdges(spread, 5, 12);
    const straddled = (edges: number[]) => edges.slice(1, -1).reduce((n, e) => n + spread.straddlers!(e), 0);
    expect(straddled(all)).toBeGreaterThan(12);
    expect(straddled(capped)).toBeLessThanOrEqual(12);
    expect(capped.length).toBeLessThan(all.length);
    // The ends stay: the buckets still hold every price.
    expect([capped[0], capped[capped.length - 1]]).toEqual([all[0], all[all.length - 1]]);
  });

  it('in the unit of the limits: per month against a nightly price and per night against a monthly price both tile it', () => {
    const nightly = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-03-08', nights: 7 } as const;
    expect(priceBuckets([100, 150, 200], 'per_month', 'per_night')).toEqual([
      { min: 3_000, max: 4_499, limits: { min: 100, max: 149 } },
      { min: 4_500, max: 5_999, limits: { min: 150, max: 199 } },
    ]);
    expect(edgeQuantum(nightly, 'per_month')).toBe(5);
    expect(edgeQuantum(fixed, 'per_night')).toBe(150);
    expect(priceBuckets([3_000, 4_500], 'per_night', 'per_month')).toEqual([{ min: 100, max: 149, limits: { min: 3_000, max: 4_499 } }]);
    const buckets = priceBuckets([3_000, 4_500, 6_000], 'per_night', 'per_month');
    expect(bucketOf(4_470, buckets)).toBe(0);
    // $149.33 a night is $149 in whole dollars: the first bucket's, not between the two.
    expect(bucketOf(4_480, buckets)).toBe(0);
    expect(bucketOf(4_500, buckets)).toBe(1);
  });
});

describe('priceCountBody', () => {
  const buckets = priceBuckets([2_000, 3_000, 4_000], 'per_month', 'per_month');
  const s = facetScope(search, undefined);
  const counted = { bool: { filter: [...s.base, BEDROOMS, RATING] } };

  it('an exact price: Elasticsearch counts each bucket with the clauses of min_price/max_price', () => {
    const undated: SearchParams = { ...search, stay: { kind: 'undated' } };
    const u = facetScope(undated, undefined);
    expect(priceCountBody(undated, u, buckets)).toEqual({
      size: 0,
      track_total_hits: false,
      query: { bool: { filter: [...u.base, BEDROOMS, RATING] } },
      aggs: {
        buckets: {
          filters: {
            filters: {
              b0: { bool: { filter: [{ range: { 'reference_price.with_discount': { gte: 2_000, lte: 2_999 } } }] } },
              b1: { bool: { filter: [{ range: { 'reference_price.with_discount': { gte: 3_000, lte: 3_999 } } }] } },
            },
          },
        },
      },
    });
  });

  it('a fixed stay: homes bounded inside a bucket counted there, the others returned to be priced, in batches', () => {
    const body = priceCountBody(search, s, buckets);
    const inside = (lo: number, hi: number) => ({
      bool: {
        filter: [
          { exists: { field: 'price_lo.202703_30' } },
          { range: { 'price_lo.202703_30': { gte: lo } } },
          { range: { 'price_hi.202703_30': { lte: hi } } },
        ],
      },
    });
    // The facet's homes are the query, counted by bucket; the hits are those bounded across an edge (post_filter, after the counts).
    expect(body.query).toEqual(counted);
    expect(body.post_filter).toEqual({ bool: { must_not: [inside(2_000, 2_999), inside(3_000, 3_999)] } });
    expect(body.aggs).toEqual({ buckets: { filters: { filters: { b0: inside(2_000, 2_999), b1: inside(3_000, 3_999) } } } });
    expect(JSON.stringify(body)).not.toContain('"global"');
    expect(body.sort).toEqual([{ home_id: 'asc' }]);
    expect(priceCountBody(search, s, buckets, ['h5']).aggs).toBeUndefined();
  });
});
