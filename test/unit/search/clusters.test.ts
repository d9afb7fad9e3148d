/** The map's clusters: the aggregation body per kind of stay, and reading the buckets back; by their output. */
import { encodeCard, type HomeCard } from '../../../services/kernel/store/home-card';
import { CLUSTER_HEADS, clusterAggs, readClusters } from '../../../services/search/map/clusters';
import type { PricedHome } from '../../../services/search/shared/exact-search';
import type { Viewport } from '../../../services/search/shared/viewport';
import { toDayNumber } from '../../../services/kernel/engine/dates';

/** A day number, as the index's range fields hold dates. */
const day = toDayNumber;

const v: Viewport = { south: 42.2, west: -71.2, north: 42.45, east: -70.9, zoom: 12 };
const fixed = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 } as const;
const LO = 'price_lo.202703_30';
const noLimits = { min: null, max: null };
const GEO = { centroid: { geo_centroid: { field: 'location' } } };

describe('clusterAggs', () => {
  it('undated: a geotile grid at the precision of the zoom over every tile of the viewport, with the least reference price', () => {
    const aggs = clusterAggs({ kind: 'undated' }, v);
    expect(aggs).toEqual({
      clusters: {
        geotile_grid: { field: 'location', precision: 14, size: expect.any(Number) },
        aggs: { ...GEO, cheapest: { min: { field: 'reference_price.with_discount' } } },
      },
    });
    expect((aggs.clusters.geotile_grid as { size: number }).size).toBeGreaterThanOrEqual(1);
  });

  it('Flex: the least price among the tiers each home can hold from the date', () => {
    const aggs = clusterAggs({ kind: 'flex', start_date: '2027-03-01', committed_nights: null }, v);
    expect(aggs.clusters.aggs).toEqual({
      ...GEO,
      tiers: {
        nested: { path: 'flex_stays' },
        aggs: {
          held: {
            filter: { bool: { filter: [{ term: { 'flex_stays.move_in': day('2027-03-01') } }] } },
            aggs: { cheapest: { min: { field: 'flex_stays.price' } } },
          },
        },
      },
    });
  });

  it('a fixed stay: the few homes of least lower bound per tile, from the card, with their bound', () => {
    expect(clusterAggs(fixed, v).clusters.aggs).toEqual({
      ...GEO,
      heads: {
        top_hits: {
          size: CLUSTER_HEADS,
          sort: [{ [LO]: { order: 'asc', missing: 0, unmapped_type: 'integer' } }, { home_id: 'asc' }],
          stored_fields: ['_none_'],
          docvalue_fields: ['card', LO],
        },
      },
    });
  });
});

const geo = { centroid: { location: { lat: 42.3, lon: -71.05 } } };
// Tile 14/4956/6060 lies inside the viewport whole: its bounds are the tile's.
const TILE = '14/4956/6060';

/** A head hit as Elasticsearch returns it: the card (as the indexer encodes it; only its id matters here) and the bound. */
function head(id: string, bound: number | null) {
  const card = encodeCard({ home_id: id, pricing: {} } as unknown as HomeCard);
  return { fields: { card: [card], ...(bound === null ? {} : { [LO]: [bound] }) } };
}

const priceOf = (prices: Record<string, number>) => (h: PricedHome) => prices[h.home_id];

describe('readClusters', () => {
  it('shapes each bucket: tile, count, centroid, bounds of its homes, the exact cheapest price and its unit; largest first', () => {
    const aggregations = {
      clusters: {
        buckets: [
          { key: TILE, doc_count: 3, ...geo, cheapest: { value: 2100 } },
          { key: '14/4956/6061', doc_count: 9, ...geo, cheapest: { value: 1900 } },
        ],
      },
    };
    const [first, second] = readClusters(aggregations, v, { kind: 'undated' }, noLimits, () => null);
    expect(first).toEqual({
      tile: '14/4956/6061',
      count: 9,
      latitude: 42.3,
      longitude: -71.05,
      bounds: expect.any(Object),
      cheapest_display_price: 1900,
      display_price_unit: 'per_month',
    });
    expect(second).toEqual({
      tile: TILE,
      count: 3,
      latitude: 42.3,
      longitude: -71.05,
      bounds: expect.any(Object),
      cheapest_display_price: 2100,
      display_price_unit: 'per_month',
    });
    // The bounds are the tile's: 360° / 2^14 of longitude wide, and the next tile south starts where it ends.
    expect(second.bounds.east - second.bounds.west).toBeCloseTo(360 / 2 ** 14, 9);
    expect(first.bounds.north).toBeCloseTo(second.bounds.south, 9);
  });

  it('a fixed stay: the least exact price of the heads when no later home can be cheaper', () => {
    const aggregations = {
      clusters: { buckets: [{ key: 't', doc_count: 10, ...geo, heads: { hits: { hits: [head('a', 100), head('b', 110), head('c', 120), head('d', 140)] } } }] },
    };
    // Exact prices 150, 130, 125, 160: the least, 125, is not above the last bound seen (140).
    const [c] = readClusters(aggregations, v, fixed, noLimits, priceOf({ a: 150, b: 130, c: 125, d: 160 }));
    expect(c.cheapest_display_price).toBe(125);
    expect(c).not.toHaveProperty('cheapest_display_price_at_least');
  });

  it('a fixed stay: only a lower bound, under its own name, when a home after the heads could be cheaper', () => {
    const aggregations = {
      clusters: { buckets: [{ key: 't', doc_count: 10, ...geo, heads: { hits: { hits: [head('a', 100), head('b', 110), head('c', 120), head('d', 140)] } } }] },
    };
    const [c] = readClusters(aggregations, v, fixed, noLimits, priceOf({ a: 170, b: 180, c: 190, d: 200 }));
    expect(c).not.toHaveProperty('cheapest_display_price');
    expect(c.cheapest_display_price_at_least).toBe(140);
    expect(c.display_price_unit).toBe('per_month');
  });

  it('a fixed stay: every home of a small tile priced is exact, and min_price raises the bound', () => {
    const small = { clusters: { buckets: [{ key: 't', doc_count: 2, ...geo, heads: { hits: { hits: [head('a', 100), head('b', 300)] } } }] } };
    expect(readClusters(small, v, fixed, noLimits, priceOf({ a: 400, b: 350 }))[0].cheapest_display_price).toBe(350);
    const big = {
      clusters: {
        buckets: [{ key: 't', doc_count: 10, ...geo, heads: { hits: { hits: [head('a', null), head('b', 100), head('c', 110), head('d', 120)] } } }],
      },
    };
    // Every home of the search meets min_price 150, so no home after the heads is below it: 150 settles it.
    expect(readClusters(big, v, fixed, { min: 150, max: null }, priceOf({ a: 150, b: 170, c: 180, d: 190 }))[0].cheapest_display_price).toBe(150);
    expect(readClusters(big, v, fixed, { min: 140, max: null }, priceOf({ a: 150, b: 170, c: 180, d: 190 }))[0].cheapest_display_price_at_least).toBe(140);
  });

  it('a fixed stay: a bound, not a price, once the search may price no more homes', () => {
    const aggregations = { clusters: { buckets: [{ key: 't', doc_count: 10, ...geo, heads: { hits: { hits: [head('a', 100), head('b', 110)] } } }] } };
    expect(readClusters(aggregations, v, fixed, noLimits, () => null)[0]).toMatchObject({ cheapest_display_price_at_least: 100 });
  });

  it('no clusters when the answer has none', () => {
    expect(readClusters(undefined, v, { kind: 'undated' }, noLimits, () => null)).toEqual([]);
  });
});
