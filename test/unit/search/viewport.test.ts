/** The map's viewport: reading the arguments, its clause, its clusters' precision; by their output. */
import { ApiError } from '../../../services/kernel/errors';
import {
  clusterPrecision,
  MAX_CLUSTER_TILES,
  readViewport,
  tileBounds,
  tilesSpanned,
  viewportClause,
  type ViewportArgs,
} from '../../../services/search/shared/viewport';
import { buildSearchBody, matchClauses } from '../../../services/search/shared/search-body';
import type { SearchParams } from '../../../services/search/shared/search-params';
import type { MarketRecord } from '../../../services/kernel/inventory/records';

const boston: ViewportArgs = { sw_latitude: 42.2, sw_longitude: -71.2, ne_latitude: 42.45, ne_longitude: -70.9, zoom: 12 };

function refusal(args: ViewportArgs): ApiError {
  try {
    readViewport(args);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`readViewport accepted ${JSON.stringify(args)}`);
}

describe('readViewport', () => {
  it('reads the corners and the zoom as south, west, north, east', () => {
    expect(readViewport(boston)).toEqual({ south: 42.2, west: -71.2, north: 42.45, east: -70.9, zoom: 12 });
  });

  it('is null when no corner and no zoom is given', () => {
    expect(readViewport({})).toBeNull();
  });

  it('refuses a zoom without a viewport, and a viewport without a zoom', () => {
    expect(refusal({ zoom: 5 }).message).toMatch(/zoom needs a viewport/);
    const { zoom: _zoom, ...noZoom } = boston;
    expect(refusal(noZoom).message).toMatch(/needs a zoom/);
  });

  it('refuses a viewport with a corner missing, naming what is missing', () => {
    const { ne_longitude: _east, ...partial } = boston;
    const err = refusal(partial);
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_parameters');
    expect(err.message).toMatch(/ne_longitude missing/);
  });

  it('refuses corners whose latitudes are reversed', () => {
    expect(refusal({ ...boston, sw_latitude: 42.45, ne_latitude: 42.2 }).message).toMatch(/reversed: sw_latitude 42.45 is north of ne_latitude 42.2/);
  });

  it('refuses a west edge east of the east edge, naming the antimeridian', () => {
    const err = refusal({ ...boston, sw_longitude: 170, ne_longitude: -170 });
    expect(err.code).toBe('invalid_parameters');
    expect(err.message).toMatch(/antimeridian/);
  });

  it('takes a degenerate rectangle (a line or a point)', () => {
    expect(readViewport({ ...boston, ne_latitude: 42.2 })).toEqual({ south: 42.2, west: -71.2, north: 42.2, east: -70.9, zoom: 12 });
  });
});

describe('viewportClause', () => {
  it('is a geo_bounding_box from the north-west to the south-east corner on the building point', () => {
    expect(viewportClause(readViewport(boston)!)).toEqual({
      geo_bounding_box: { location: { top_left: { lat: 42.45, lon: -71.2 }, bottom_right: { lat: 42.2, lon: -70.9 } } },
    });
  });
});

describe('clusterPrecision', () => {
  it('is the zoom plus two for a screen-sized viewport', () => {
    const v = readViewport(boston)!;
    expect(clusterPrecision(v)).toBe(14);
    expect(tilesSpanned(v, 14)).toBeLessThanOrEqual(MAX_CLUSTER_TILES);
  });

  it('is coarser when the rectangle is far larger than the zoom shows, so the tiles stay bounded', () => {
    const world = readViewport({ sw_latitude: -80, sw_longitude: -180, ne_latitude: 80, ne_longitude: 180, zoom: 20 })!;
    const p = clusterPrecision(world);
    expect(p).toBeLessThan(22);
    expect(tilesSpanned(world, p)).toBeLessThanOrEqual(MAX_CLUSTER_TILES);
    expect(tilesSpanned(world, p + 1)).toBeGreaterThan(MAX_CLUSTER_TILES);
  });

  it('counts tiles as web-map tiles: the whole world at precision 1 is 2 x 2', () => {
    expect(tilesSpanned({ south: -85, west: -180, north: 85, east: 180, zoom: 0 }, 1)).toBe(4);
    expect(tilesSpanned({ south: 1, west: 1, north: 2, east: 2, zoom: 0 }, 1)).toBe(1);
  });
});

describe('tileBounds', () => {
  it('is the web-map tile of a geotile key, cut to the viewport', () => {
    const world = { south: -85.0511287798066, west: -180, north: 85.0511287798066, east: 180, zoom: 0 };
    const nw = tileBounds('1/0/0', world)!;
    expect([nw.south, nw.west, nw.north, nw.east].map((x) => Math.round(x * 1e6) / 1e6)).toEqual([0, -180, 85.051129, 0]);
    const b = tileBounds('1/1/1', { south: -10, west: 20, north: 10, east: 30, zoom: 0 })!;
    expect(b).toEqual({ south: -10, west: 20, north: 0, east: 30 });
    expect(tileBounds('not-a-tile', world)).toBeNull();
  });
});

describe('buildSearchBody with a viewport', () => {
  const market = { slug: 'boston', cities: [] } as unknown as MarketRecord;
  const base: SearchParams = {
    location: null,
    viewport: readViewport(boston),
    filters: { pool: true },
    stay: { kind: 'undated' },
    price: { min: null, max: null },
    minRating: null,
    sort: 'price_asc',
  };
  const box = viewportClause(readViewport(boston)!);

  it('without a place: bookable homes inside the rectangle, no market clause', () => {
    expect(matchClauses(base)).toEqual([{ term: { bookable: true } }, box, { term: { has_pool: true } }]);
  });

  it('with a place: the market and the rectangle both', () => {
    expect(matchClauses({ ...base, location: { market, city: null } })).toEqual([
      { term: { bookable: true } },
      { term: { market_slug: 'boston' } },
      box,
      { term: { has_pool: true } },
    ]);
  });

  it('carries the caller aggregations on the page request', () => {
    const aggs = { clusters: { geotile_grid: { field: 'location', precision: 14 } } };
    expect(buildSearchBody(base, { kind: 'page', from: 0, size: 250, aggs }).aggs).toEqual(aggs);
    expect(buildSearchBody(base, { kind: 'page', from: 0, size: 250 })).not.toHaveProperty('aggs');
  });
});
