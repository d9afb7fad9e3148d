/**
 * The box every home a shape-placed search can match lies in (a drawn polygon, a near circle, a map's
 * viewport), and the markets whose extent that box meets: a search without a market reads only their
 * shards (docs/decisions.md, "A shape reads the shards of its markets"). All pure, tested by their output.
 */
import type { Rectangle } from '../../kernel/map-tiles';
import type { MarketExtent } from '../../kernel/store/market-extents';
import { nearPoint, type SharedFilters } from './filters';
import type { Polygon } from './polygon';
import type { Viewport } from './viewport';

/** Mean Earth radius in miles, the sphere of Elasticsearch's arc distance. */
const EARTH_RADIUS_MILES = 6_371_008.7714 / 1_609.344;
/**
 * Degrees every box is grown by on each side: Lucene stores a point to about 1e-7° and a query shape's
 * edges to the same grid, so a point on an edge may lie a hair outside the box of the numbers given.
 */
export const AREA_MARGIN_DEGREES = 1e-5;

export interface SearchShapes {
  polygon?: Polygon | null;
  viewport?: Viewport | null;
  filters: SharedFilters;
}

/** The polygon's vertices' box: its edges are straight in longitude and latitude, as Elasticsearch reads a query polygon. */
export function polygonBox(p: Polygon): Rectangle {
  const lats = p.vertices.map((v) => v.lat);
  const lons = p.vertices.map((v) => v.lon);
  return { south: Math.min(...lats), west: Math.min(...lons), north: Math.max(...lats), east: Math.max(...lons) };
}

export function viewportBox(v: Viewport): Rectangle {
  return { south: v.south, west: v.west, north: v.north, east: v.east };
}

/**
 * A box around the circle of `miles` around the point, on the sphere: its latitude span is the radius
 * in degrees; its longitude span the radius over the cosine of the box's latitude farthest from the
 * equator (wider than the circle at every latitude it reaches), every longitude once that reaches a pole
 * or the circle crosses the antimeridian (a box here never wraps).
 */
export function circleBox(near: { lat: number; lon: number; miles: number }): Rectangle {
  const degrees = (near.miles / EARTH_RADIUS_MILES) * (180 / Math.PI);
  const south = near.lat - degrees;
  const north = near.lat + degrees;
  const poleward = Math.max(Math.abs(south), Math.abs(north));
  const lonSpan = poleward >= 89 ? 360 : degrees / Math.cos((poleward * Math.PI) / 180);
  const west = near.lon - lonSpan;
  const east = near.lon + lonSpan;
  const wraps = west < -180 || east > 180;
  return { south: Math.max(-90, south), west: wraps ? -180 : west, north: Math.min(90, north), east: wraps ? 180 : east };
}

/** The box a search's shapes confine its homes to (the meet of each shape's box, grown by the margin); null when no shape places it. */
export function searchArea(s: SearchShapes): Rectangle | null {
  const near = nearPoint(s.filters);
  const boxes = [s.polygon ? polygonBox(s.polygon) : null, s.viewport ? viewportBox(s.viewport) : null, near ? circleBox(near) : null].filter(
    (b): b is Rectangle => b !== null,
  );
  if (boxes.length === 0) return null;
  const m = AREA_MARGIN_DEGREES;
  return {
    south: Math.max(...boxes.map((b) => b.south)) - m,
    west: Math.max(...boxes.map((b) => b.west)) - m,
    north: Math.min(...boxes.map((b) => b.north)) + m,
    east: Math.min(...boxes.map((b) => b.east)) + m,
  };
}

/** Whether two boxes share a point (edges included); an empty box (south past north, or west past east) meets none. */
export function boxesMeet(a: Rectangle, b: Rectangle): boolean {
  if (a.south > a.north || a.west > a.east || b.south > b.north || b.west > b.east) return false;
  return a.south <= b.north && b.south <= a.north && a.west <= b.east && b.west <= a.east;
}

/** The markets whose extent the area meets, in slug order. */
export function marketsMeeting(area: Rectangle, extents: readonly MarketExtent[]): string[] {
  return extents
    .filter((e) => boxesMeet(area, e.box))
    .map((e) => e.market)
    .sort();
}

/** The `routing` of a search over some markets' shards: their keys, each once, comma-separated (Elasticsearch's list form). */
export function routingList(keys: readonly string[]): string {
  return [...new Set(keys)].sort().join(',');
}
