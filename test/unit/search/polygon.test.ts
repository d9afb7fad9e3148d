/**
 * The `polygon` argument: reading and checking it (count, distinct vertices, the antimeridian, an area,
 * no self-intersection), its winding, its Elasticsearch clause in the search bodies and its GET form;
 * by their output, and against @turf/kinks for random shapes.
 */
import fc from 'fast-check';
import kinks from '@turf/kinks';
import { polygon as turfPolygon } from '@turf/helpers';
import { ApiError } from '../../../services/kernel/errors';
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { POLYGON_QUERY_PATTERN, polygonClause, polygonQuery, readPolygon, type PolygonVertex } from '../../../services/search/shared/polygon';
import { buildSearchBody, matchClauses } from '../../../services/search/shared/search-body';
import type { SearchParams } from '../../../services/search/shared/search-params';
import { runs } from '../../support/property-runs';

/** Vertices from [latitude, longitude] pairs. */
const shape = (...pairs: Array<[number, number]>): PolygonVertex[] => pairs.map(([latitude, longitude]) => ({ latitude, longitude }));
/** A point of a grid over lower Manhattan: x east, y north, in steps of 0.01°. */
const grid = (x: number, y: number): [number, number] => [40 + y / 100, -74 + x / 100];

function refusal(vertices: PolygonVertex[]): ApiError {
  try {
    readPolygon(vertices);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`readPolygon accepted ${JSON.stringify(vertices)}`);
}

const TRIANGLE = shape([40.7, -74.02], [40.7, -73.97], [40.76, -73.99]);

describe('readPolygon', () => {
  it('is null when no polygon is given', () => {
    expect(readPolygon(undefined)).toBeNull();
  });

  it('keeps a counter-clockwise polygon as given', () => {
    expect(readPolygon(TRIANGLE)).toEqual({
      vertices: [
        { lat: 40.7, lon: -74.02 },
        { lat: 40.7, lon: -73.97 },
        { lat: 40.76, lon: -73.99 },
      ],
    });
  });

  it('winds a clockwise polygon counter-clockwise, its first vertex first', () => {
    expect(readPolygon([TRIANGLE[0], TRIANGLE[2], TRIANGLE[1]])).toEqual(readPolygon(TRIANGLE));
  });

  it('takes 3 to 100 vertices, and refuses fewer or more', () => {
    const ring = (n: number) =>
      Array.from({ length: n }, (_, k) => ({ latitude: 40 + Math.sin((2 * Math.PI * k) / n), longitude: -74 + Math.cos((2 * Math.PI * k) / n) }));
    expect(readPolygon(ring(100))!.vertices).toHaveLength(100);
    expect(refusal(ring(2)).message).toMatch(/3 to 100 vertices; 2 were given/);
    expect(refusal(ring(101)).message).toMatch(/3 to 100 vertices; 101 were given/);
  });

  it('refuses a point off the Earth', () => {
    const err = refusal(shape([40, -74], [40, -73], [91, -73.5]));
    expect(err).toMatchObject({ code: 'invalid_parameters', status: 400 });
    expect(err.message).toMatch(/polygon\[2\] is not a point on Earth/);
  });

  it('refuses a repeated vertex, the first repeated at the end included (the polygon closes itself)', () => {
    expect(refusal([...TRIANGLE, TRIANGLE[0]]).message).toMatch(/polygon\[0\] and polygon\[3\] are the same point .*do not repeat the first vertex/);
    expect(refusal(shape(grid(0, 0), grid(4, 0), grid(4, 0), grid(0, 4))).message).toMatch(/polygon\[1\] and polygon\[2\] are the same point/);
  });

  it('refuses an edge spanning more than 180° of longitude (across the antimeridian), and takes one of exactly 180°', () => {
    const err = refusal(shape([10, 170], [10, -170], [20, 175]));
    expect(err.code).toBe('invalid_parameters');
    expect(err.message).toMatch(/from polygon\[0\] to polygon\[1\] spans more than 180° of longitude \(170 to -170\).*antimeridian/);
    expect(readPolygon(shape([0, -90], [0, 90], [10, 0]))).not.toBeNull();
  });

  it('takes a polygon wider than 180° whose every edge is shorter, wound counter-clockwise', () => {
    const wide = shape([20, -170], [60, -170], [60, -80], [60, 15], [20, 15], [20, -80]);
    expect(readPolygon(wide)!.vertices.map((v) => v.lon)).toEqual([-170, -80, 15, 15, -80, -170]);
  });

  it('refuses a shape with no area: every vertex on one line', () => {
    expect(refusal(shape([40, -74], [40.5, -73.5], [41, -73])).message).toMatch(/encloses no area/);
    expect(refusal(shape(grid(0, 0), grid(0, 1), grid(0, 3), grid(0, 2))).message).toMatch(/encloses no area/);
  });

  it('refuses edges that cross (a bow tie)', () => {
    const err = refusal(shape(grid(0, 0), grid(4, 0), grid(0, 4), grid(4, 4)));
    expect(err.code).toBe('invalid_parameters');
    expect(err.message).toMatch(/intersects itself: its edge polygon\[1\]-polygon\[2\] meets its edge polygon\[3\]-polygon\[0\]/);
  });

  it('refuses a vertex touching an edge that is not its own', () => {
    // The fifth vertex lies on the edge from the second to the third.
    expect(refusal(shape(grid(0, 0), grid(4, 0), grid(4, 4), grid(0, 4), grid(4, 2))).message).toMatch(/polygon\[1\]-polygon\[2\] meets/);
  });

  it('counts a vertex within 1e-9° (~0.1 mm) of another edge as on it, and one a micro-degree away as clear of it', () => {
    const near = (offset: number) => shape(grid(0, 0), grid(4, 0), grid(4, 4), grid(0, 4), [40.02, -73.96 - offset]);
    expect(refusal(near(1e-10)).message).toMatch(/polygon\[1\]-polygon\[2\] meets/);
    expect(readPolygon(near(1e-6))!.vertices).toHaveLength(5);
    // A vertex on a slanted edge in decimal degrees, which binary floating point puts beside it.
    expect(refusal(shape([40, -74], [40.04, -73.96], [40.04, -74.02], [40.01, -73.99])).message).toMatch(/intersects itself/);
  });

  it('refuses an edge folding back over the one before it, and edges that overlap along a line', () => {
    expect(refusal(shape(grid(0, 0), grid(4, 0), grid(4, 4), grid(4, 2), grid(0, 4))).message).toMatch(
      /polygon\[1\]-polygon\[2\] meets its edge polygon\[2\]-polygon\[3\]/,
    );
    // The last edge runs on over the first: the second vertex lies on it.
    expect(refusal(shape(grid(1, 0), grid(2, 0), grid(3, 4), grid(4, 0))).message).toMatch(
      /polygon\[3\]-polygon\[0\] meets its edge polygon\[0\]-polygon\[1\]/,
    );
    expect(refusal(shape(grid(0, 0), grid(4, 0), grid(4, 2), grid(3, 0), grid(1, 0), grid(0, 2))).message).toMatch(/intersects itself/);
  });

  it('takes a vertex on a straight run (three in a line, onward)', () => {
    expect(readPolygon(shape(grid(0, 0), grid(2, 0), grid(4, 0), grid(2, 3)))!.vertices).toHaveLength(4);
  });

  it('refuses every random shape in which @turf/kinks finds a crossing, and winds every shape it takes counter-clockwise', () => {
    // Vertices on a coarse grid, so that touching, overlapping and collinear vertices are frequent.
    const vertex = fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })).map(([x, y]) => grid(x, y));
    let taken = 0;
    fc.assert(
      fc.property(fc.uniqueArray(vertex, { minLength: 3, maxLength: 9, selector: ([a, b]) => `${a},${b}` }), (pairs) => {
        const vertices = shape(...pairs);
        const ring = [...pairs, pairs[0]].map(([lat, lon]) => [lon, lat]);
        let read: ReturnType<typeof readPolygon>;
        try {
          read = readPolygon(vertices);
        } catch (err) {
          if (!(err instanceof ApiError) || err.code !== 'invalid_parameters') throw err;
          return;
        }
        taken += 1;
        expect(kinks(turfPolygon([ring])).features).toEqual([]);
        const vs = read!.vertices;
        const twiceArea = vs.reduce((sum, v, k) => sum + v.lon * vs[(k + 1) % vs.length].lat - vs[(k + 1) % vs.length].lon * v.lat, 0);
        expect(twiceArea).toBeGreaterThan(0);
      }),
      { numRuns: runs(2_000), seed: 20261127 },
    );
    expect(taken).toBeGreaterThan(100);
  });
});

describe('polygonClause', () => {
  it('is a geo_shape query on the building point: a GeoJSON polygon, [longitude, latitude], its ring closed, counter-clockwise', () => {
    expect(polygonClause(readPolygon([TRIANGLE[0], TRIANGLE[2], TRIANGLE[1]])!)).toEqual({
      geo_shape: {
        location: {
          shape: {
            type: 'polygon',
            coordinates: [
              [
                [-74.02, 40.7],
                [-73.97, 40.7],
                [-73.99, 40.76],
                [-74.02, 40.7],
              ],
            ],
          },
          relation: 'intersects',
        },
      },
    });
  });
});

describe('buildSearchBody with a polygon', () => {
  const market = { slug: 'new-york', cities: [] } as unknown as MarketRecord;
  const polygon = readPolygon(TRIANGLE)!;
  const base: SearchParams = {
    location: null,
    polygon,
    filters: { pool: true },
    stay: { kind: 'undated' },
    price: { min: null, max: null },
    minRating: null,
    sort: 'price_asc',
  };
  const inside = polygonClause(polygon);

  it('without a place: bookable homes inside the polygon, in every market', () => {
    expect(buildSearchBody(base, { kind: 'page', from: 0, size: 25 })).toEqual({
      track_total_hits: true,
      from: 0,
      size: 25,
      stored_fields: ['_none_'],
      docvalue_fields: ['card'],
      query: { bool: { filter: [{ term: { bookable: true } }, inside, { term: { has_pool: true } }] } },
      sort: [{ 'reference_price.with_discount': 'asc' }, { home_id: 'asc' }],
    });
  });

  it('with a market, a viewport and a radius: every one of them applies', () => {
    const p: SearchParams = {
      ...base,
      location: { market, city: null },
      viewport: { south: 40.6, west: -74.1, north: 40.8, east: -73.9, zoom: 12 },
      filters: { near_latitude: 40.72, near_longitude: -73.99, near_radius_miles: 2 },
    };
    expect(matchClauses(p)).toEqual([
      { term: { bookable: true } },
      { term: { market_slug: 'new-york' } },
      { geo_bounding_box: { location: { top_left: { lat: 40.8, lon: -74.1 }, bottom_right: { lat: 40.6, lon: -73.9 } } } },
      inside,
      { geo_distance: { distance: '2mi', location: { lat: 40.72, lon: -73.99 } } },
    ]);
  });

  it('leaves the body as it was without one', () => {
    expect(matchClauses({ ...base, polygon: null })).toEqual([{ term: { bookable: true } }, { term: { has_pool: true } }]);
  });
});

describe('the GET form of a polygon', () => {
  it('decodes latitude,longitude pairs separated by semicolons', () => {
    expect(polygonQuery.decode('40.7,-74.02;40.7,-73.97;40.76,-73.99')).toEqual(TRIANGLE);
    expect(polygonQuery.decode('0,0;1,1')).toEqual(shape([0, 0], [1, 1]));
  });

  it.each([
    '40.7,-74.02;40.7',
    '40.7 -74.02;1,2;3,4',
    '40.7,-74.02;;40.76,-73.99',
    'a,b;1,2;3,4',
    '40.7,-74.02;40.7,-73.97;',
    '1e2,3;1,2;3,4',
    '+4,1;1,2;3,4',
    '[]',
    '',
  ])('refuses %j with the encoding in the message', (text) => {
    let err: unknown;
    try {
      polygonQuery.decode(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('invalid_parameters');
    expect((err as ApiError).message).toMatch(/latitude,longitude.*separated by ";"/);
  });

  it('cuts a long bad vertex short in the message', () => {
    let message = '';
    try {
      polygonQuery.decode(`${'9'.repeat(500)};1,2;3,4`);
    } catch (e) {
      message = (e as ApiError).message;
    }
    expect(message.length).toBeLessThan(250);
  });

  it('documents its form in a pattern that takes 3 to 100 vertices', () => {
    const pattern = new RegExp(POLYGON_QUERY_PATTERN);
    const pairs = (n: number) => Array.from({ length: n }, (_, k) => `${40 + k / 1000},-74.${k}`).join(';');
    expect(pattern.test(pairs(3))).toBe(true);
    expect(pattern.test(pairs(100))).toBe(true);
    expect(pattern.test(pairs(2))).toBe(false);
    expect(pattern.test(pairs(101))).toBe(false);
    expect(pattern.test('40.7,-74.02;40.7,-73.97;40.76,-73.99;')).toBe(false);
  });
});
