/**
 * Polygons for the tests of the `polygon` argument: random star-shaped ones (never self-intersecting),
 * their GET text, their bounding box, and where a point lies, by @turf/boolean-point-in-polygon with a
 * band along the edges where either answer is right (Elasticsearch stores points to ~1e-7°).
 */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { point, polygon as turfPolygon } from '@turf/helpers';
import type { PolygonVertex } from '../../services/search/shared/polygon';

type Pt = { latitude: number; longitude: number };

/** The lower 48 states' box as a polygon: every market of the test worlds inside it. */
export const COUNTRY: readonly PolygonVertex[] = [
  { latitude: 24, longitude: -125 },
  { latitude: 24, longitude: -66 },
  { latitude: 50, longitude: -66 },
  { latitude: 50, longitude: -125 },
];

/** Degrees within which a building counts as on an edge, and may fall either way. */
export const EDGE = 1e-6;

/**
 * A star-shaped polygon around a point: angles in order, no gap between two of them as wide as a half
 * turn (so the point stays inside), each vertex at its own distance: it never crosses itself. Either
 * winding, by a coin.
 */
export function starPolygon(rnd: () => number, center: Pt, radius: number, n: number): PolygonVertex[] {
  const vertices = Array.from({ length: n }, (_, k) => {
    const a = ((k + 0.8 * rnd()) * 2 * Math.PI) / n;
    const r = radius * (0.25 + 0.75 * rnd());
    return { latitude: center.latitude + r * Math.sin(a), longitude: center.longitude + r * Math.cos(a) * 1.3 };
  });
  return rnd() < 0.5 ? vertices : vertices.reverse();
}

/** The GET form: `lat,lon;lat,lon;…`. */
export const polygonText = (vs: readonly PolygonVertex[]): string => vs.map((v) => `${v.latitude},${v.longitude}`).join(';');

/** The bounding box, as the map's viewport arguments. */
export function boundingViewport(vs: readonly PolygonVertex[], zoom = 10) {
  return {
    sw_latitude: Math.min(...vs.map((v) => v.latitude)),
    sw_longitude: Math.min(...vs.map((v) => v.longitude)),
    ne_latitude: Math.max(...vs.map((v) => v.latitude)),
    ne_longitude: Math.max(...vs.map((v) => v.longitude)),
    zoom,
  };
}

function distanceToSegment(p: Pt, a: Pt, b: Pt): number {
  const [px, py, ax, ay, bx, by] = [p.longitude, p.latitude, a.longitude, a.latitude, b.longitude, b.latitude];
  const len = (bx - ax) ** 2 + (by - ay) ** 2;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len));
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
}

/** Inside, outside, or on an edge (within EDGE of it: either answer is right). */
export function where(vs: readonly PolygonVertex[], p: Pt): 'inside' | 'outside' | 'edge' {
  if (vs.some((v, k) => distanceToSegment(p, v, vs[(k + 1) % vs.length]) < EDGE)) return 'edge';
  const ring = [...vs, vs[0]].map((v) => [v.longitude, v.latitude]);
  return booleanPointInPolygon(point([p.longitude, p.latitude]), turfPolygon([ring])) ? 'inside' : 'outside';
}
