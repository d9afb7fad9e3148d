/**
 * The map search's Elasticsearch requests (the apartment search with a viewport and its clusters),
 * pinned by their output for its main inputs: a viewport alone or in a market, filters and a radius,
 * the zoom's precision, a fixed stay by price, and the routing of each.
 */
import type { MarketExtent } from '../../../services/kernel/store/market-extents';
import type { estypes } from '@elastic/elasticsearch';
import type { Deps } from '../../../services/deps';
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { searchApartments } from '../../../services/search/apartments/apartment-search';
import { searchHomes } from '../../../services/search/apartments/search-homes';
import { clusterAggs } from '../../../services/search/map/clusters';
import { buildSearchBody } from '../../../services/search/shared/search-body';
import type { SearchParams } from '../../../services/search/shared/search-params';
import type { SearchResponse, SearchTransport } from '../../../services/search/shared/search-transport';
import type { Viewport } from '../../../services/search/shared/viewport';

const market = { slug: 'boston', name: 'Boston', state: 'MA', cities: [] } as unknown as MarketRecord;
const boston: Viewport = { south: 42.2, west: -71.2, north: 42.45, east: -70.9, zoom: 12 };
const BOX = { geo_bounding_box: { location: { top_left: { lat: 42.45, lon: -71.2 }, bottom_right: { lat: 42.2, lon: -70.9 } } } };
const CARD = { stored_fields: ['_none_'], docvalue_fields: ['card'] };
const GRID_AGGS = { centroid: { geo_centroid: { field: 'location' } }, cheapest: { min: { field: 'reference_price.with_discount' } } };
const fixed = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 } as const;

const viewportAlone: SearchParams = {
  location: null,
  viewport: boston,
  filters: {},
  stay: { kind: 'undated' },
  price: { min: null, max: null },
  minRating: null,
  sort: 'price_asc',
};
const pins = (p: SearchParams, v: Viewport) => buildSearchBody(p, { kind: 'page', from: 0, size: 250, aggs: clusterAggs(p.stay, v) });

describe('the map search body', () => {
  it('a viewport alone, undated: bookable homes inside it anywhere, 250 pins in price order, clusters over every tile it spans', () => {
    expect(pins(viewportAlone, boston)).toEqual({
      track_total_hits: true,
      from: 0,
      size: 250,
      ...CARD,
      query: { bool: { filter: [{ term: { bookable: true } }, BOX] } },
      sort: [{ 'reference_price.with_discount': 'asc' }, { home_id: 'asc' }],
      aggs: { clusters: { geotile_grid: { field: 'location', precision: 14, size: 240 }, aggs: GRID_AGGS } },
    });
  });

  it('a country at zoom 4: tiles two levels finer than the zoom, as many buckets as tiles', () => {
    const country: Viewport = { south: 25, west: -125, north: 49, east: -66, zoom: 4 };
    expect(pins({ ...viewportAlone, viewport: country }, country).aggs).toEqual({
      clusters: { geotile_grid: { field: 'location', precision: 6, size: 84 }, aggs: GRID_AGGS },
    });
  });

  it('a viewport in a market with filters and a radius: the market, the box, then the filters and the circle', () => {
    const p: SearchParams = {
      ...viewportAlone,
      location: { market, city: null },
      filters: { pets: true, near_latitude: 42.36, near_longitude: -71.06, near_radius_miles: 3 },
    };
    expect(pins(p, boston).query).toEqual({
      bool: {
        filter: [
          { term: { bookable: true } },
          { term: { market_slug: 'boston' } },
          BOX,
          { term: { pets_allowed: true } },
          { geo_distance: { distance: '3mi', location: { lat: 42.36, lon: -71.06 } } },
        ],
      },
    });
  });
});

describe('the map search, as sent', () => {
  it("a fixed stay by price: the clusters ride beside the first batch of the price stream, in a search of their own that counts, with each tile's cheapest heads", async () => {
    const trips: estypes.SearchRequest[][] = [];
    const empty = { hits: { total: { value: 0, relation: 'eq' }, hits: [] } } as unknown as SearchResponse;
    const t: SearchTransport = {
      search: async (body) => (trips.push([body]), empty),
      searchAll: async (bodies) => (trips.push([...bodies]), bodies.map(() => empty)),
      aggregate: async () => ({ aggregations: {}, total: 0 }),
    };
    const p: SearchParams = { ...viewportAlone, stay: fixed };
    await searchHomes(t, p, 0, 250, '2027-01-01', clusterAggs(fixed, boston));
    expect(trips).toHaveLength(1);
    const [first, counting] = trips[0];
    expect(first).toEqual(
      expect.objectContaining({
        track_total_hits: false,
        sort: [{ 'price_lo.202703_30': { order: 'asc', missing: 0, unmapped_type: 'integer' } }, { home_id: 'asc' }],
      }),
    );
    expect(first.aggs).toBeUndefined();
    expect(counting).toEqual({ size: 0, track_total_hits: true, query: first.query, aggs: clusterAggs(fixed, boston) });
    expect(counting.aggs?.clusters?.aggs?.heads).toEqual({
      top_hits: {
        size: 8,
        sort: [{ 'price_lo.202703_30': { order: 'asc', missing: 0, unmapped_type: 'integer' } }, { home_id: 'asc' }],
        stored_fields: ['_none_'],
        docvalue_fields: ['card', 'price_lo.202703_30'],
      },
    });
  });

  it("a named market's map is routed to the market's shard; a viewport alone reads the shards of the markets it meets, every shard while their extents are unknown", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const empty = { hits: { total: { value: 0 }, hits: [] } };
    const es = {
      search: async (request: Record<string, unknown>) => (sent.push(request), empty),
      // One `_msearch`: each search's header (its routing) then its body.
      msearch: async (request: { index: string; searches: Array<Record<string, unknown>> }) => {
        for (let i = 0; i < request.searches.length; i += 2) sent.push({ index: request.index, ...request.searches[i], ...request.searches[i + 1] });
        return { body: { responses: request.searches.filter((_, i) => i % 2 === 1).map(() => empty) } };
      },
    };
    const deps = {
      es,
      config: { homesAlias: 'homes' },
      esNodes: undefined,
      routingKeys: { keyOf: async (slug: string) => `key-of-${slug}` },
      marketExtents: { current: async () => extents },
    } as unknown as Deps;
    let extents: MarketExtent[] | null = [
      { market: 'boston', box: { south: 42.3, west: -71.1, north: 42.5, east: -70.95 } },
      { market: 'cambridge', box: { south: 42.36, west: -71.16, north: 42.4, east: -71.08 } },
      { market: 'austin', box: { south: 30.1, west: -97.9, north: 30.5, east: -97.5 } },
    ];
    await searchApartments(deps, { ...viewportAlone, location: { market, city: null } }, 0, 250, '2027-01-01', {
      aggs: clusterAggs({ kind: 'undated' }, boston),
    });
    await searchApartments(deps, viewportAlone, 0, 250, '2027-01-01');
    extents = null;
    await searchApartments(deps, viewportAlone, 0, 250, '2027-01-01');
    // The market's pins and, beside them, its clusters counted in a search of their own: both on its shard.
    expect(sent.map((r) => [r.index, r.routing])).toEqual([
      ['homes', 'key-of-boston'],
      ['homes', 'key-of-boston'],
      ['homes', 'key-of-boston,key-of-cambridge'],
      ['homes', undefined],
    ]);
    expect(sent[0].aggs).toBeUndefined();
    expect(sent[1].aggs).toEqual(clusterAggs({ kind: 'undated' }, boston));
  });
});
