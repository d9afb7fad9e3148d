/**
 * Web-map tiles (Web Mercator, the grid of Elasticsearch's `geotile_grid` and of every slippy map):
 * where a longitude or latitude falls on the tile grid of a precision, where a tile's edges are, and a
 * rectangle widened outward to that grid. Pure; shared by the viewport search and by the two map
 * clients (the page and the widget), which align the viewport they ask for.
 */

/** Web Mercator's latitude limit: the grid stops there; geotile_grid puts points beyond it in the edge tiles. */
export const MERCATOR_LIMIT = 85.0511287798066;

export interface Rectangle {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** The longitude's place on the grid of `precision`, in tiles from 180° W (not rounded). */
export function gridX(lon: number, precision: number): number {
  return ((lon + 180) / 360) * 2 ** precision;
}

/** The latitude's place on the grid of `precision`, in tiles from the north edge (not rounded). */
export function gridY(lat: number, precision: number): number {
  const rad = (Math.max(-MERCATOR_LIMIT, Math.min(MERCATOR_LIMIT, lat)) * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** precision;
}

/** The column of the tile holding the longitude. */
export function tileX(lon: number, precision: number): number {
  return Math.min(2 ** precision - 1, Math.max(0, Math.floor(gridX(lon, precision))));
}

/** The row of the tile holding the latitude. */
export function tileY(lat: number, precision: number): number {
  return Math.min(2 ** precision - 1, Math.max(0, Math.floor(gridY(lat, precision))));
}

/** The longitude of the west edge of column `x`. */
export function tileLongitude(x: number, precision: number): number {
  return (x / 2 ** precision) * 360 - 180;
}

/** The latitude of the north edge of row `y`. */
export function tileLatitude(y: number, precision: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** precision))) * 180) / Math.PI;
}

/** Six decimals of a degree (about 0.1 m): the same edge written the same way by every browser's Math. */
const EDGE_DECIMALS = 1e6;
const canonical = (degrees: number): number => Math.round(degrees * EDGE_DECIMALS) / EDGE_DECIMALS + 0; // + 0: never -0
/** An edge within a written decimal of a tile edge is on it: aligning an aligned rectangle gives it back. */
const ON_EDGE = 1 / EDGE_DECIMALS;

/**
 * The rectangle widened outward to the edges of the tiles of `precision` it touches (edges within a
 * millionth of a degree of a tile edge count as on it, and edges are written to six decimals, so it
 * contains the rectangle to within 1.5 millionths of a degree): every rectangle inside the same tiles
 * gives the same one, and an aligned rectangle is its own alignment. A longitude beyond ±180 (a map
 * panned past the antimeridian) is taken at ±180; a latitude beyond Web Mercator's limit is left as it is.
 */
export function alignToTiles(r: Rectangle, precision: number): Rectangle {
  const lon = (degrees: number): number => Math.max(-180, Math.min(180, degrees));
  const lat = (degrees: number): number => Math.max(-90, Math.min(90, degrees));
  const west = tileLongitude(Math.floor(gridX(lon(r.west) + ON_EDGE, precision)), precision);
  const east = tileLongitude(Math.ceil(gridX(lon(r.east) - ON_EDGE, precision)), precision);
  // Rows count from the north: the north edge rounds down, the south edge up.
  const north = r.north >= MERCATOR_LIMIT ? lat(r.north) : tileLatitude(Math.floor(gridY(r.north - ON_EDGE, precision)), precision);
  const south = r.south <= -MERCATOR_LIMIT ? lat(r.south) : tileLatitude(Math.ceil(gridY(r.south + ON_EDGE, precision)), precision);
  return { south: lat(canonical(south)), west: lon(canonical(west)), north: lat(canonical(north)), east: lon(canonical(east)) };
}

/**
 * How much finer than the map's zoom the grid of an asked viewport is: one level, tiles of 128 pixels
 * (each two by two of the clusters' 64-pixel cells). docs/decisions.md, "Map viewports on a grid".
 */
export const VIEWPORT_GRID_STEP = 1;

/** The viewport a map asks for when it shows `r` at `zoom`: `r` widened to the grid of zoom + VIEWPORT_GRID_STEP. */
export function alignViewport(r: Rectangle, zoom: number): Rectangle {
  return alignToTiles(r, zoom + VIEWPORT_GRID_STEP);
}
