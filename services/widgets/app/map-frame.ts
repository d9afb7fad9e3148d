/**
 * Where the map looks: a Mercator projection framing the pins (or the viewport searched, and a
 * proximity search's circle), and the view a pan or a zoom asks for next, as the viewport arguments
 * of the map's search. Pure: a projection in, bounds and arguments out.
 */
import { geoMercator, type GeoProjection } from 'd3-geo';
import { alignViewport, type Rectangle } from '../../kernel/map-tiles';
import type { MapResult, SearchHome } from './results';

export const WIDTH = 720;
export const HEIGHT = 440;
export const MILES_PER_DEGREE = 69.09;
/**
 * Smallest span framed around pins, in degrees: the basemap is at 1:10,000,000, so the map frames a
 * region (coast, state lines) rather than streets it does not have.
 */
const MIN_SPAN_DEGREES = 1.2;
/** Smallest span a person can zoom to (about 10 miles): close enough to tell a city's buildings apart. */
export const MIN_VIEW_SPAN = 0.15;
/** The margin around framed pins, in map units; a viewport is framed edge to edge (the next pan starts from it). */
const PIN_MARGIN = 28;
const MAX_LATITUDE = 84;

type Point = [number, number];

/** A map's bounds in degrees: the kernel's rectangle, as the viewport grid takes it. */
export type Bounds = Rectangle;

/**
 * The projection of a result: the view (the viewport searched, or the view a move showed) edge to
 * edge, else its pins (and circle) with a margin. A move's search asks a viewport wider than its view
 * (on the grid, viewportArgs): the pins beyond the view are off the map.
 */
export function frame(homes: SearchHome[], near: MapResult['near'], viewport?: Bounds): GeoProjection {
  const lons = viewport ? [viewport.west, viewport.east] : homes.map((h) => h.longitude);
  const lats = viewport ? [viewport.south, viewport.north] : homes.map((h) => h.latitude);
  if (near) {
    const dLat = near.radius_miles / MILES_PER_DEGREE;
    const dLon = dLat / Math.cos((near.latitude * Math.PI) / 180);
    lons.push(near.longitude - dLon, near.longitude + dLon);
    lats.push(near.latitude - dLat, near.latitude + dLat);
  }
  const minSpan = viewport ? MIN_VIEW_SPAN : MIN_SPAN_DEGREES;
  const span = (values: number[]): Point => {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = Math.max(0, minSpan - (hi - lo)) / 2;
    return [lo - pad, hi + pad];
  };
  const [west, east] = span(lons);
  const [south, north] = span(lats);
  const margin = viewport ? 0 : PIN_MARGIN;
  return geoMercator()
    .fitExtent(
      [
        [margin, margin],
        [WIDTH - margin, HEIGHT - margin],
      ],
      {
        type: 'MultiPoint',
        coordinates: [
          [west, south],
          [east, north],
        ],
      },
    )
    .clipExtent([
      [0, 0],
      [WIDTH, HEIGHT],
    ]);
}

const clampLat = (lat: number): number => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
const clampLon = (lon: number): number => Math.max(-180, Math.min(180, lon));

/** What the map shows once moved by (dx, dy) map units (a drag; 0, 0 for the map as drawn). */
export function shownBounds(projection: GeoProjection, dx = 0, dy = 0): Bounds {
  const sw = projection.invert?.([-dx, HEIGHT - dy]) ?? [-180, -MAX_LATITUDE];
  const ne = projection.invert?.([WIDTH - dx, -dy]) ?? [180, MAX_LATITUDE];
  return { west: clampLon(sw[0]), south: clampLat(sw[1]), east: clampLon(ne[0]), north: clampLat(ne[1]) };
}

/** The bounds zoomed by `factor` around their centre (2: in, 0.5: out), never tighter than MIN_VIEW_SPAN. */
export function zoomBounds(b: Bounds, factor: number): Bounds {
  const cx = (b.west + b.east) / 2;
  const cy = (b.south + b.north) / 2;
  const scale = Math.max(1 / factor, MIN_VIEW_SPAN / Math.min(b.east - b.west, b.north - b.south));
  const halfW = ((b.east - b.west) / 2) * scale;
  const halfH = ((b.north - b.south) / 2) * scale;
  return { west: clampLon(cx - halfW), south: clampLat(cy - halfH), east: clampLon(cx + halfW), north: clampLat(cy + halfH) };
}

/** True when zooming in would not frame anything tighter. */
export function atClosest(b: Bounds): boolean {
  return Math.min(b.east - b.west, b.north - b.south) <= MIN_VIEW_SPAN * 1.01;
}

/** The web-map zoom level (0-20) whose tiles cover the bounds' width in the map's width: it sizes the clusters. */
export function zoomLevel(b: Bounds): number {
  const level = Math.log2(((360 / Math.max(b.east - b.west, 1e-6)) * WIDTH) / 256);
  return Math.max(0, Math.min(20, Math.round(level)));
}

/**
 * The viewport arguments of the map's search for the bounds: the bounds widened to the viewport grid of
 * their zoom, so that a small move asks the question asked before (docs/decisions.md, "Map viewports on a grid").
 */
export function viewportArgs(b: Bounds): Record<'sw_latitude' | 'sw_longitude' | 'ne_latitude' | 'ne_longitude' | 'zoom', number> {
  const zoom = zoomLevel(b);
  const a = alignViewport(b, zoom);
  return { sw_latitude: a.south, sw_longitude: a.west, ne_latitude: a.north, ne_longitude: a.east, zoom };
}
