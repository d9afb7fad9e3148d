/**
 * The `polygon` argument of the searches ("search inside a drawn shape"; docs/contract.md, "Location" rule 6):
 * 3 to 100 vertices `{ latitude, longitude }`, closed implicitly, read and checked (a simple polygon with an
 * area, no edge across the antimeridian), wound counter-clockwise, and turned into an Elasticsearch
 * `geo_shape` clause on the building's point. Its GET form is text (`lat,lon;lat,lon;…`), decoded here
 * too. All pure, tested by their output.
 */
import type { estypes } from '@elastic/elasticsearch';
import { badRequest } from '../../kernel/errors';

export const POLYGON_MIN_VERTICES = 3;
export const POLYGON_MAX_VERTICES = 100;
/**
 * Edges nearer each other than this many degrees (~0.1 mm) touch: a vertex drawn on an edge in decimal
 * degrees, which binary floating point puts a hair to one side of it, is one on it.
 */
export const POLYGON_TOUCH_DEGREES = 1e-9;

export const polygonProperties = {
  polygon: {
    type: 'array',
    minItems: POLYGON_MIN_VERTICES,
    maxItems: POLYGON_MAX_VERTICES,
    description:
      `A drawn shape to search inside: ${POLYGON_MIN_VERTICES} to ${POLYGON_MAX_VERTICES} distinct vertices in order, closed implicitly (do not repeat the first). ` +
      'Only apartments whose building lies inside it match; it may stand in for market, or narrow it, and combines with every other argument. ' +
      'Its edges may not cross or touch one another, it must enclose an area, and no edge may span more than 180° of longitude ' +
      '(a shape across the antimeridian is refused: draw one on each side of 180°).',
    items: {
      type: 'object',
      properties: {
        latitude: { type: 'number', minimum: -90, maximum: 90, description: 'Latitude of the vertex (-90 to 90).' },
        longitude: { type: 'number', minimum: -180, maximum: 180, description: 'Longitude of the vertex (-180 to 180).' },
      },
      required: ['latitude', 'longitude'],
      additionalProperties: false,
    },
  },
} as const;

export interface PolygonVertex {
  latitude: number;
  longitude: number;
}

export type PolygonArgs = { polygon?: readonly PolygonVertex[] };

interface Point {
  lat: number;
  lon: number;
}

/** A checked polygon: its vertices counter-clockwise (longitude east, latitude north), the first as given first. */
export interface Polygon {
  vertices: readonly Point[];
}

const refuse = (message: string) => badRequest('invalid_parameters', message);
const at = (p: Point) => `(${p.lat}, ${p.lon})`;

/** Twice the signed area of a, b, c in the plane of longitude (x) and latitude (y): > 0 counter-clockwise. */
function cross(a: Point, b: Point, c: Point): number {
  return (b.lon - a.lon) * (c.lat - a.lat) - (b.lat - a.lat) * (c.lon - a.lon);
}

/** Degrees from p to the segment a-b (planar). */
function toSegment(p: Point, a: Point, b: Point): number {
  const dx = b.lon - a.lon;
  const dy = b.lat - a.lat;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.lon - a.lon) * dx + (p.lat - a.lat) * dy) / len));
  const ex = p.lon - (a.lon + t * dx);
  const ey = p.lat - (a.lat + t * dy);
  return Math.sqrt(ex * ex + ey * ey);
}

/** Whether the segments p1-p2 and q1-q2 cross, or come within POLYGON_TOUCH_DEGREES of each other. */
export function segmentsMeet(p1: Point, p2: Point, q1: Point, q2: Point): boolean {
  const d1 = cross(q1, q2, p1);
  const d2 = cross(q1, q2, p2);
  const d3 = cross(p1, p2, q1);
  const d4 = cross(p1, p2, q2);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return Math.min(toSegment(p1, q1, q2), toSegment(p2, q1, q2), toSegment(q1, p1, p2), toSegment(q2, p1, p2)) <= POLYGON_TOUCH_DEGREES;
}

/**
 * The first pair of edges that cross, touch or overlap, or null for a simple polygon. Edge i runs from
 * vertex i to vertex i + 1 (the last back to vertex 0). Edges that are not neighbours may not meet at
 * all; neighbours meet at their shared vertex only (the far end of one on the other is a fold or an
 * overlap). O(n²) segment tests: 4,950 pairs at 100 vertices.
 */
export function firstSelfIntersection(vs: readonly Point[]): [number, number] | null {
  const n = vs.length;
  // Each edge's bounding box grown by the tolerance: two edges whose boxes are apart cannot meet (most pairs).
  const t = POLYGON_TOUCH_DEGREES;
  const west = vs.map((v, i) => Math.min(v.lon, vs[(i + 1) % n].lon) - t);
  const east = vs.map((v, i) => Math.max(v.lon, vs[(i + 1) % n].lon) + t);
  const south = vs.map((v, i) => Math.min(v.lat, vs[(i + 1) % n].lat) - t);
  const north = vs.map((v, i) => Math.max(v.lat, vs[(i + 1) % n].lat) + t);
  for (let i = 0; i < n; i++) {
    const a = vs[i];
    const b = vs[(i + 1) % n];
    for (let j = i + 1; j < n; j++) {
      if (west[i] > east[j] || west[j] > east[i] || south[i] > north[j] || south[j] > north[i]) continue;
      const c = vs[j];
      const d = vs[(j + 1) % n];
      if (j === i + 1) {
        // a-b then b-d.
        if (Math.min(toSegment(d, a, b), toSegment(a, b, d)) <= POLYGON_TOUCH_DEGREES) return [i, j];
      } else if (i === 0 && j === n - 1) {
        // c-a then a-b.
        if (Math.min(toSegment(c, a, b), toSegment(b, c, a)) <= POLYGON_TOUCH_DEGREES) return [j, i];
      } else if (segmentsMeet(a, b, c, d)) {
        return [i, j];
      }
    }
  }
  return null;
}

/** Whether every vertex lies within POLYGON_TOUCH_DEGREES of one line: the shape encloses no area. */
function onOneLine(vs: readonly Point[]): boolean {
  const o = vs[0];
  const far = vs.reduce((f, v) => (Math.hypot(v.lon - o.lon, v.lat - o.lat) > Math.hypot(f.lon - o.lon, f.lat - o.lat) ? v : f), o);
  const span = Math.hypot(far.lon - o.lon, far.lat - o.lat);
  return span <= POLYGON_TOUCH_DEGREES || vs.every((v) => Math.abs(cross(o, far, v)) / span <= POLYGON_TOUCH_DEGREES);
}

/** Whether a simple polygon runs clockwise: the sign of its shoelace area, taken about its first vertex (so large coordinates cancel first). */
function clockwise(vs: readonly Point[]): boolean {
  let twiceArea = 0;
  for (let i = 1; i + 1 < vs.length; i++) twiceArea += cross(vs[0], vs[i], vs[i + 1]);
  return twiceArea < 0;
}

/**
 * The polygon the argument gives, or null when it gives none; a 400 (`invalid_parameters`) naming what is
 * wrong when it is not a simple polygon with an area that keeps to one side of the antimeridian
 * (docs/decisions.md, "A drawn polygon"). A clockwise polygon is reversed, keeping its first vertex first.
 */
export function readPolygon(given: readonly PolygonVertex[] | undefined): Polygon | null {
  if (given === undefined) return null;
  if (given.length < POLYGON_MIN_VERTICES || given.length > POLYGON_MAX_VERTICES) {
    throw refuse(`polygon takes ${POLYGON_MIN_VERTICES} to ${POLYGON_MAX_VERTICES} vertices; ${given.length} were given.`);
  }
  const vs: Point[] = given.map((v) => ({ lat: v.latitude, lon: v.longitude }));
  for (const [i, v] of vs.entries()) {
    if (!(Math.abs(v.lat) <= 90 && Math.abs(v.lon) <= 180)) {
      throw refuse(`polygon[${i}] is not a point on Earth: latitude is -90 to 90 and longitude -180 to 180.`);
    }
  }
  // In order of position, a vertex given twice is next to itself.
  const order = vs.map((_, i) => i).sort((i, j) => vs[i].lat - vs[j].lat || vs[i].lon - vs[j].lon || i - j);
  for (let k = 1; k < order.length; k++) {
    const [first, i] = [order[k - 1], order[k]];
    if (vs[first].lat === vs[i].lat && vs[first].lon === vs[i].lon) {
      throw refuse(
        `polygon[${first}] and polygon[${i}] are the same point ${at(vs[i])}: the vertices are distinct, and the polygon closes itself (do not repeat the first vertex at the end).`,
      );
    }
  }
  const n = vs.length;
  for (let i = 0; i < n; i++) {
    const a = vs[i];
    const b = vs[(i + 1) % n];
    if (Math.abs(a.lon - b.lon) > 180) {
      throw refuse(
        `The polygon's edge from polygon[${i}] to polygon[${(i + 1) % n}] spans more than 180° of longitude (${a.lon} to ${b.lon}): ` +
          'it would cross the antimeridian (180°), which this search does not take. Draw the part on each side of 180° as its own polygon.',
      );
    }
  }
  if (onOneLine(vs)) throw refuse('The polygon encloses no area: its vertices lie on one line.');
  const crossing = firstSelfIntersection(vs);
  if (crossing) {
    const [i, j] = crossing;
    throw refuse(
      `The polygon intersects itself: its edge polygon[${i}]-polygon[${(i + 1) % n}] meets its edge polygon[${j}]-polygon[${(j + 1) % n}]. ` +
        'Edges may not cross, touch or overlap; pass the vertices in their order around the shape.',
    );
  }
  return { vertices: clockwise(vs) ? [vs[0], ...vs.slice(1).reverse()] : vs };
}

/**
 * The homes whose building lies inside the polygon: Elasticsearch `geo_shape` on the `geo_point` field
 * `location` (GeoJSON, so [longitude, latitude], the ring closed). Counter-clockwise, as Elasticsearch
 * reads a query polygon by default: a clockwise ring wider than 180° would be read as crossing the antimeridian.
 */
export function polygonClause(p: Polygon): estypes.QueryDslQueryContainer {
  const ring = [...p.vertices, p.vertices[0]].map((v) => [v.lon, v.lat]);
  return { geo_shape: { location: { shape: { type: 'polygon', coordinates: [ring] }, relation: 'intersects' } } };
}

/** GET: `lat,lon;lat,lon;…`, plain decimal numbers (docs/decisions.md, "A drawn polygon"). */
const NUMBER = '-?\\d{1,3}(?:\\.\\d+)?';
export const POLYGON_QUERY_PATTERN = `^${NUMBER},${NUMBER}(?:;${NUMBER},${NUMBER}){${POLYGON_MIN_VERTICES - 1},${POLYGON_MAX_VERTICES - 1}}$`;
const VERTEX_TEXT = new RegExp(`^(${NUMBER}),(${NUMBER})$`);
const EXAMPLE = '40.75,-74.01;40.76,-73.97;40.73,-73.98';

/** The polygon's GET form: how its text becomes the argument, and how openapi.json documents it. */
export const polygonQuery = {
  description:
    `A drawn shape to search inside, as ${POLYGON_MIN_VERTICES} to ${POLYGON_MAX_VERTICES} vertices "latitude,longitude" separated by ";" ` +
    `(e.g. ${EXAMPLE}), closed implicitly; the rules of the tool argument polygon apply.`,
  schema: { type: 'string', pattern: POLYGON_QUERY_PATTERN },
  decode(text: string): PolygonVertex[] {
    return text.split(';').map((pair, i) => {
      const m = VERTEX_TEXT.exec(pair);
      if (!m) {
        const shown = pair.length > 40 ? `${pair.slice(0, 40)}…` : pair;
        throw refuse(`polygon is vertices "latitude,longitude" separated by ";" (e.g. ${EXAMPLE}); vertex ${i} "${shown}" is not one.`);
      }
      return { latitude: Number(m[1]), longitude: Number(m[2]) };
    });
  },
};
