/**
 * The map's viewport (docs/contract.md, search_apartments_on_map rule 2): the SW and NE corners of the rectangle a map
 * shows and its zoom level, read from flat arguments (as near_latitude/near_longitude are, so GET
 * takes them as they are), checked, and turned into an Elasticsearch `geo_bounding_box` clause and
 * the precision of the clusters' `geotile_grid`. All pure, tested by their output.
 */
import type { estypes } from '@elastic/elasticsearch';
import { badRequest } from '../../kernel/errors';
import { tileLatitude, tileLongitude, tileX, tileY, type Rectangle } from '../../kernel/map-tiles';

const latitude = (corner: string) =>
  ({
    type: 'number',
    minimum: -90,
    maximum: 90,
    description: `Latitude of the viewport's ${corner} corner (-90 to 90); with the other corner and zoom.`,
  }) as const;
const longitude = (corner: string) =>
  ({
    type: 'number',
    minimum: -180,
    maximum: 180,
    description: `Longitude of the viewport's ${corner} corner (-180 to 180); with the other corner and zoom.`,
  }) as const;

/** Most web-map zoom levels: 0 (the world) to 20 (a building). */
export const MAX_ZOOM = 20;

export const viewportProperties = {
  sw_latitude: latitude('south-west'),
  sw_longitude: longitude('south-west'),
  ne_latitude: latitude('north-east'),
  ne_longitude: longitude('north-east'),
  zoom: {
    type: 'integer',
    minimum: 0,
    maximum: MAX_ZOOM,
    description: `Web-map zoom level of the viewport (0-${MAX_ZOOM}), given with the four corners; it sets how fine the clusters are.`,
  },
} as const;

export type ViewportArgs = {
  sw_latitude?: number;
  sw_longitude?: number;
  ne_latitude?: number;
  ne_longitude?: number;
  zoom?: number;
};

export interface Viewport {
  south: number;
  west: number;
  north: number;
  east: number;
  zoom: number;
}

const CORNERS = ['sw_latitude', 'sw_longitude', 'ne_latitude', 'ne_longitude'] as const;

/**
 * The viewport the arguments give, or null when they give none. All four corners and the zoom
 * come together; the north-east corner is north of the south-west one. A viewport across the
 * antimeridian (west longitude east of the east one) is refused (docs/decisions.md).
 */
export function readViewport(args: ViewportArgs): Viewport | null {
  const given = CORNERS.filter((k) => args[k] !== undefined);
  if (given.length === 0) {
    if (args.zoom !== undefined)
      throw badRequest('invalid_parameters', 'zoom needs a viewport: pass sw_latitude, sw_longitude, ne_latitude and ne_longitude with it.');
    return null;
  }
  if (given.length < CORNERS.length) {
    const missing = CORNERS.filter((k) => args[k] === undefined);
    throw badRequest(
      'invalid_parameters',
      `A viewport needs both corners: ${missing.join(', ')} missing (sw_latitude, sw_longitude, ne_latitude, ne_longitude and zoom go together).`,
    );
  }
  const { sw_latitude: south, sw_longitude: west, ne_latitude: north, ne_longitude: east } = args as Required<ViewportArgs>;
  if (args.zoom === undefined) throw badRequest('invalid_parameters', `A viewport needs a zoom (an integer 0 to ${MAX_ZOOM}) to size its clusters.`);
  if (south > north) {
    throw badRequest('invalid_parameters', `The viewport's corners are reversed: sw_latitude ${south} is north of ne_latitude ${north}.`);
  }
  if (west > east) {
    throw badRequest(
      'invalid_parameters',
      `sw_longitude ${west} is east of ne_longitude ${east}: either the corners are reversed, or the viewport crosses the antimeridian (180°), ` +
        'which this search does not take. Pass the part on each side of 180° as its own viewport.',
    );
  }
  return { south, west, north, east, zoom: args.zoom };
}

/** The homes inside the rectangle, edges included (Elasticsearch `geo_bounding_box` on the building's point). */
export function viewportClause(v: Viewport): estypes.QueryDslQueryContainer {
  return { geo_bounding_box: { location: { top_left: { lat: v.north, lon: v.west }, bottom_right: { lat: v.south, lon: v.east } } } };
}

/**
 * Clusters are web-map tiles two levels finer than the zoom: a 256-pixel tile cut in 4 × 4 cells of
 * 64 pixels, a marker's reach apart on screen.
 */
export const CLUSTER_ZOOM_STEP = 2;
/**
 * Most tiles a viewport's clusters may span: the answer's clusters are bounded whatever rectangle
 * and zoom are asked (a 1280 × 800 screen at 64-pixel cells spans about 300), and their counts still
 * add up to the total, since no bucket is dropped.
 */
export const MAX_CLUSTER_TILES = 512;

/** How many tiles of `precision` the viewport touches. */
export function tilesSpanned(v: Viewport, precision: number): number {
  return (tileX(v.east, precision) - tileX(v.west, precision) + 1) * (tileY(v.south, precision) - tileY(v.north, precision) + 1);
}

/** The geotile_grid precision of the viewport's clusters: the zoom plus two, coarser while it would span more than MAX_CLUSTER_TILES tiles. */
export function clusterPrecision(v: Viewport): number {
  let precision = v.zoom + CLUSTER_ZOOM_STEP;
  while (precision > 0 && tilesSpanned(v, precision) > MAX_CLUSTER_TILES) precision -= 1;
  return precision;
}

/**
 * The rectangle of a geotile key (`zoom/x/y`) inside the viewport: what a cluster covers. Null for a
 * key that is not one.
 */
export function tileBounds(key: string, v: Viewport): Rectangle | null {
  const [z, x, y] = key.split('/').map(Number);
  if (![z, x, y].every(Number.isInteger)) return null;
  return {
    south: Math.max(v.south, tileLatitude(y + 1, z)),
    west: Math.max(v.west, tileLongitude(x, z)),
    north: Math.min(v.north, tileLatitude(y, z)),
    east: Math.min(v.east, tileLongitude(x + 1, z)),
  };
}
