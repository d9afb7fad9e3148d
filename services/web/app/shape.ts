/**
 * The shape a person draws on the map: a ring of 3 to 100 vertices [latitude, longitude] that the
 * searches take as `polygon`. Written into the page URL (so a reload or a shared link restores it) and
 * into the API's query the same way, `lat,lon;lat,lon;…`, five decimals (about a metre). Pure.
 */

/** One vertex: [latitude, longitude]. */
export type Vertex = [number, number];

export const MIN_VERTICES = 3;
export const MAX_VERTICES = 100;

const round = (n: number): number => Math.round(n * 1e5) / 1e5;

/** Twice the area of the triangle a, b, c in degrees: how much the ring loses when b is dropped. */
const weight = (a: Vertex, b: Vertex, c: Vertex): number => Math.abs((b[1] - a[1]) * (c[0] - a[0]) - (c[1] - a[1]) * (b[0] - a[0]));

/**
 * A drawn ring as the API takes it: rounded, without repeated or closing vertices, and at most
 * `max` vertices (the ones that shape it least dropped first, Visvalingam's way); null when fewer
 * than three distinct vertices are left.
 */
export function cleanRing(points: ReadonlyArray<Vertex>, max = MAX_VERTICES): Vertex[] | null {
  const ring: Vertex[] = [];
  for (const [lat, lon] of points) {
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
    const v: Vertex = [round(lat), round(lon)];
    const last = ring[ring.length - 1];
    if (!last || last[0] !== v[0] || last[1] !== v[1]) ring.push(v);
  }
  while (ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1]) ring.pop();
  while (ring.length > Math.max(max, MIN_VERTICES)) {
    let least = 0;
    let leastWeight = Infinity;
    for (let i = 0; i < ring.length; i++) {
      const w = weight(ring[(i - 1 + ring.length) % ring.length], ring[i], ring[(i + 1) % ring.length]);
      if (w < leastWeight) [least, leastWeight] = [i, w];
    }
    ring.splice(least, 1);
  }
  return ring.length >= MIN_VERTICES ? ring : null;
}

/** `lat,lon;lat,lon;…`: the page URL's `polygon` and the searches' `polygon` parameter. */
export function formatShape(ring: ReadonlyArray<Vertex>): string {
  return ring.map(([lat, lon]) => `${round(lat)},${round(lon)}`).join(';');
}

/** A `polygon` value read back; anything malformed (a bad number, a vertex off the globe, too few or too many) is null. */
export function parseShape(raw: string | null): Vertex[] | null {
  if (!raw) return null;
  const parts = raw.split(';');
  if (parts.length < MIN_VERTICES || parts.length > MAX_VERTICES) return null;
  const ring: Vertex[] = [];
  for (const part of parts) {
    const pair = part.split(',');
    if (pair.length !== 2 || pair.some((s) => !/^-?\d+(\.\d+)?$/.test(s.trim()))) return null;
    const [lat, lon] = pair.map(Number);
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
    ring.push([lat, lon]);
  }
  return cleanRing(ring);
}
