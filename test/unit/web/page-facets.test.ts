/**
 * The search page's pure helpers for the answer's facets and the drawn shape: the counts each
 * choice shows, the price histogram's bars, and the shape as the URL and the API carry it.
 */
import { FLAG_FIELDS } from '../../../services/search/shared/filters';
import { GUEST_RATING_NAMES } from '../../../services/kernel/limits/rating';
import {
  bedroomsCount,
  ceilingIn,
  emptyChoice,
  FILTER_NAMES,
  filterCount,
  histogramBars,
  histogramSummary,
  RATING_NAMES,
  ratingCount,
  withCount,
  type Facets,
} from '../../../services/web/app/facets';
import { cleanRing, formatShape, MAX_VERTICES, parseShape, type Vertex } from '../../../services/web/app/shape';

const facets: Facets = {
  filters: [
    { filter: 'parking', count: 42 },
    { filter: 'pool', count: 0 },
  ],
  bedrooms: [
    { bedrooms: 0, count: 3 },
    { bedrooms: 1, count: 10 },
    { bedrooms: 2, count: 6 },
    { bedrooms: 4, count: 1 },
  ],
  guest_rating: [
    { guest_rating: 'EXCELLENT', count: 4 },
    { guest_rating: 'VERY_GOOD', count: 9 },
  ],
  price: {
    unit: 'per_month',
    buckets: [
      { min: 1000, max: 1499, count: 5 },
      { min: 1500, max: 1999, count: 20 },
      { min: 2000, max: 2499, count: 0 },
      { min: 2500, max: 2999, count: 1 },
    ],
  },
};

describe('the counts the form shows', () => {
  it('name the same filters and ratings as the searches take', () => {
    expect([...FILTER_NAMES].sort()).toEqual(Object.keys(FLAG_FIELDS).sort());
    expect(RATING_NAMES).toEqual(GUEST_RATING_NAMES);
  });

  it('read a filter and a rating, a left-out one as 0, and nothing without facets', () => {
    expect(filterCount(facets, 'parking')).toBe(42);
    expect(filterCount(facets, 'gym')).toBe(0);
    expect(filterCount(null, 'parking')).toBeNull();
    expect(ratingCount(facets, 'VERY_GOOD')).toBe(9);
    expect(ratingCount(facets, 'GOOD')).toBe(0);
    expect(withCount('Parking', 42)).toBe('Parking (42)');
    expect(withCount('Parking', 1234)).toBe('Parking (1,234)');
    expect(withCount('Parking', null)).toBe('Parking');
  });

  it('add up the exact bedroom counts for an "at least" choice', () => {
    expect(bedroomsCount(facets, null)).toBe(20);
    expect(bedroomsCount(facets, 0)).toBe(20);
    expect(bedroomsCount(facets, 1)).toBe(17);
    expect(bedroomsCount(facets, 3)).toBe(1);
    expect(bedroomsCount(null, 1)).toBeNull();
  });

  it('disable a choice that leaves no home, unless it is the one chosen', () => {
    expect(emptyChoice(0, false)).toBe(true);
    expect(emptyChoice(0, true)).toBe(false);
    expect(emptyChoice(3, false)).toBe(false);
    expect(emptyChoice(null, false)).toBe(false);
  });
});

describe('the price histogram', () => {
  it('draws one bar per bucket, as tall as its count against the largest, and an empty bucket flat', () => {
    const bars = histogramBars(facets.price.buckets, null, 200, 40);
    expect(bars.map((b) => b.height)).toEqual([10, 40, 0, 2]); // a single home is still seen
    expect(bars.map((b) => b.y)).toEqual([30, 0, 40, 38]);
    expect(bars.map((b) => b.x)).toEqual([1, 51, 101, 151]);
    expect(bars.every((b) => b.width === 48 && b.inside)).toBe(true);
    expect(histogramBars([], null, 200, 40)).toEqual([]);
  });

  it('greys the buckets past the ceiling, a nightly histogram against a thirtieth of the monthly ceiling', () => {
    expect(histogramBars(facets.price.buckets, 1999, 200, 40).map((b) => b.inside)).toEqual([true, true, false, false]);
    expect(histogramBars(facets.price.buckets, 1800, 200, 40).map((b) => b.inside)).toEqual([true, false, false, false]);
    expect(ceilingIn('per_month', 3000)).toBe(3000);
    expect(ceilingIn('per_night', 3000)).toBe(100);
    expect(ceilingIn('per_night', 3029)).toBe(100);
    expect(ceilingIn('per_night', null)).toBeNull();
  });

  it('is read aloud as its unit and the buckets that hold a home', () => {
    expect(histogramSummary(facets.price)).toBe(
      'Prices per month of the matching homes: $1,000–$1,499: 5 homes; $1,500–$1,999: 20 homes; $2,500–$2,999: 1 home.',
    );
    expect(histogramSummary({ unit: 'per_night', buckets: [] })).toBe('Prices per night: no matching home.');
  });
});

describe('the drawn shape', () => {
  const triangle: Vertex[] = [
    [30.123456, -97.765432],
    [30.3, -97.7],
    [30.2, -97.65],
  ];

  it('is written as lat,lon;lat,lon with five decimals and read back the same', () => {
    const ring = cleanRing(triangle)!;
    expect(formatShape(ring)).toBe('30.12346,-97.76543;30.3,-97.7;30.2,-97.65');
    expect(parseShape(formatShape(ring))).toEqual(ring);
  });

  it('loses repeated and closing vertices, and is no shape with fewer than three', () => {
    expect(cleanRing([...triangle, triangle[2], triangle[0]])).toEqual(cleanRing(triangle));
    expect(cleanRing([triangle[0], triangle[1], triangle[0]])).toBeNull();
    expect(cleanRing([triangle[0], [NaN, 1], triangle[2]])).toBeNull();
  });

  it('keeps at most 100 vertices, dropping those that shape it least', () => {
    // A circle of 360 vertices with one spike: the spike is kept.
    const circle: Vertex[] = Array.from({ length: 360 }, (_, i) => {
      const r = i === 90 ? 2 : 1;
      return [30 + r * Math.sin((i * Math.PI) / 180), -97 + r * Math.cos((i * Math.PI) / 180)];
    });
    const ring = cleanRing(circle)!;
    expect(ring).toHaveLength(MAX_VERTICES);
    expect(ring).toContainEqual([32, -97]);
    expect(cleanRing(circle, 10)).toHaveLength(10);
  });

  it('refuses a malformed value: a bad number, a vertex off the globe, too few or too many vertices', () => {
    for (const raw of ['', '1,2;3,4', '1,2;3,4;5,x', '1,2;3,4;91,0', '1,2;3,4;5,181', '1,2,3;3,4;5,6', Array(101).fill('1,2').join(';')]) {
      expect([raw, parseShape(raw)]).toEqual([raw, null]);
    }
  });
});
