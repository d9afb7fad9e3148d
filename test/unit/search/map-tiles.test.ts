/** Web-map tiles and the viewport grid the map clients ask on: properties of the alignment, by its output. */
import fc from 'fast-check';
import {
  alignToTiles,
  alignViewport,
  gridX,
  gridY,
  MERCATOR_LIMIT,
  tileLatitude,
  tileLongitude,
  VIEWPORT_GRID_STEP,
  type Rectangle,
} from '../../../services/kernel/map-tiles';
import { CLUSTER_ZOOM_STEP } from '../../../services/search/shared/viewport';

/** Latitudes inside Web Mercator's grid, and (one draw in five) the grid's limits, the poles and the equator. */
const latitude = fc.oneof(
  { arbitrary: fc.double({ min: -MERCATOR_LIMIT + 0.01, max: MERCATOR_LIMIT - 0.01, noNaN: true }), weight: 4 },
  { arbitrary: fc.constantFrom(-90, -MERCATOR_LIMIT, 0, MERCATOR_LIMIT, 90), weight: 1 },
);
/** Longitudes, with the antimeridian's two sides and the prime meridian (a zero-width view when drawn twice). */
const longitude = fc.oneof({ arbitrary: fc.double({ min: -180, max: 180, noNaN: true }), weight: 4 }, { arbitrary: fc.constantFrom(-180, 0, 180), weight: 1 });
/** Whether a rectangle lies inside the grid (its latitudes strictly within Web Mercator's limit). */
const onGrid = (r: Rectangle): boolean => r.north < MERCATOR_LIMIT && r.south > -MERCATOR_LIMIT;
/** A rectangle as a map shows it: south of north, west of east. */
const rectangle = fc.tuple(latitude, latitude, longitude, longitude).map(([a, b, c, d]): Rectangle => ({
  south: Math.min(a, b),
  north: Math.max(a, b),
  west: Math.min(c, d),
  east: Math.max(c, d),
}));
/** The grid's precisions: a map's zoom (0-20) and one finer. */
const precision = fc.integer({ min: 0, max: 21 });
/** Within the 6-decimal writing of an edge (about 0.1 m), and the millionth of a degree that counts as on an edge. */
const EDGE = 1.5e-6;

describe('alignToTiles', () => {
  it('contains the rectangle it widens', () => {
    fc.assert(
      fc.property(rectangle, precision, (r, p) => {
        const a = alignToTiles(r, p);
        expect(a.south).toBeLessThanOrEqual(r.south + EDGE);
        expect(a.west).toBeLessThanOrEqual(r.west + EDGE);
        expect(a.north).toBeGreaterThanOrEqual(r.north - EDGE);
        expect(a.east).toBeGreaterThanOrEqual(r.east - EDGE);
      }),
    );
  });

  it('puts every edge on a tile edge of the precision, and never further than one tile out', () => {
    fc.assert(
      fc.property(rectangle, precision, (r, p) => {
        const a = alignToTiles(r, p);
        for (const lon of [a.west, a.east]) expect(Math.abs(lon - tileLongitude(Math.round(gridX(lon, p)), p))).toBeLessThan(EDGE);
        // No more than one tile out, each edge taken back by the 6-decimal writing (up to a few hundredths of
        // a tile at the finest precision near Mercator's limit).
        expect(gridX(r.west, p) - gridX(a.west + EDGE, p)).toBeLessThan(1);
        expect(gridX(a.east - EDGE, p) - gridX(r.east, p)).toBeLessThan(1);
        // A latitude beyond the grid is kept as it is (the next test); one inside it goes to a row's edge.
        if (r.south > -MERCATOR_LIMIT) {
          expect(Math.abs(a.south - tileLatitude(Math.round(gridY(a.south, p)), p))).toBeLessThan(EDGE);
          expect(gridY(a.south + EDGE, p) - gridY(r.south, p)).toBeLessThan(1);
        }
        if (r.north < MERCATOR_LIMIT) {
          expect(Math.abs(a.north - tileLatitude(Math.round(gridY(a.north, p)), p))).toBeLessThan(EDGE);
          expect(gridY(r.north, p) - gridY(a.north - EDGE, p)).toBeLessThan(1);
        }
        // Always a viewport the search takes.
        expect(a.south).toBeLessThanOrEqual(a.north);
        expect(a.west).toBeLessThanOrEqual(a.east);
        for (const v of [a.south, a.north]) expect(Math.abs(v)).toBeLessThanOrEqual(90);
        for (const v of [a.west, a.east]) expect(Math.abs(v)).toBeLessThanOrEqual(180);
      }),
      // Found by this property: a zero-height rectangle at the south pole, at a fine precision.
      { examples: [[{ south: -90, north: -90, west: 0, east: 0 }, 18]] },
    );
  });

  it('gives every rectangle whose edges fall in the same tiles the same answer (a small pan asks the same question)', () => {
    const part = fc.double({ min: 0, max: 0.999, noNaN: true });
    fc.assert(
      fc.property(rectangle, precision, part, part, part, part, (r, p, a, b, c, d) => {
        fc.pre(onGrid(r));
        // The tiles an edge falls in (an edge within a millionth of a degree of a tile edge is on it), and each
        // edge moved anywhere inside its tile.
        const westTile = (lon: number) => Math.floor(gridX(lon + 1e-6, p));
        const eastTile = (lon: number) => Math.ceil(gridX(lon - 1e-6, p));
        const northRow = (lat: number) => Math.floor(gridY(lat - 1e-6, p));
        const southRow = (lat: number) => Math.ceil(gridY(lat + 1e-6, p));
        const west = tileLongitude(westTile(r.west) + a, p);
        const east = tileLongitude(eastTile(r.east) - b, p);
        const north = tileLatitude(northRow(r.north) + c, p);
        const south = tileLatitude(southRow(r.south) - d, p);
        fc.pre(west <= east && south <= north);
        fc.pre(westTile(west) === westTile(r.west) && eastTile(east) === eastTile(r.east));
        fc.pre(northRow(north) === northRow(r.north) && southRow(south) === southRow(r.south));
        expect(alignToTiles({ south, west, north, east }, p)).toEqual(alignToTiles(r, p));
      }),
    );
  });

  it('is idempotent: an aligned rectangle is its own alignment', () => {
    fc.assert(
      fc.property(rectangle, precision, (r, p) => {
        const a = alignToTiles(r, p);
        expect(alignToTiles(a, p)).toEqual(a);
      }),
    );
  });

  it('takes a longitude panned past ±180 at ±180, so the viewport is one the search takes', () => {
    expect(alignToTiles({ south: 10, west: 200, north: 20, east: 260 }, 4)).toMatchObject({ west: 180, east: 180 });
    expect(alignToTiles({ south: 10, west: -250, north: 20, east: -170 }, 4)).toMatchObject({ west: -180, east: -157.5 });
    expect(alignToTiles({ south: 10, west: 170, north: 20, east: 190 }, 4)).toMatchObject({ west: 157.5, east: 180 });
  });

  it('keeps a latitude beyond Web Mercator, and the world edges, as they are', () => {
    expect(alignToTiles({ south: -90, west: -180, north: 90, east: 180 }, 5)).toEqual({ south: -90, west: -180, north: 90, east: 180 });
    const limit = Math.round(MERCATOR_LIMIT * 1e6) / 1e6;
    expect(alignToTiles({ south: 0, west: 0, north: 1, east: 1 }, 0)).toEqual({ south: -limit, west: -180, north: limit, east: 180 });
  });
});

describe('alignViewport', () => {
  it('aligns to a grid finer than the zoom and coarser than the clusters, so no cluster cell is cut', () => {
    expect(VIEWPORT_GRID_STEP).toBeGreaterThan(0);
    expect(VIEWPORT_GRID_STEP).toBeLessThanOrEqual(CLUSTER_ZOOM_STEP);
    // Boston at zoom 12: tiles of 2^13 across the world, 0.0439° wide.
    const shown = { south: 42.3, west: -71.15, north: 42.42, east: -71.0 };
    const asked = alignViewport(shown, 12);
    expect(asked).toEqual(alignToTiles(shown, 12 + VIEWPORT_GRID_STEP));
    expect(asked.east - asked.west).toBeLessThan(shown.east - shown.west + 2 * (360 / 2 ** 13));
    // A pan of a tenth of a grid tile that crosses no grid line asks the same viewport.
    const step = 360 / 2 ** 13 / 10;
    const inside = { ...shown, west: asked.west + step, east: asked.east - step };
    expect(alignViewport(inside, 12)).toEqual(asked);
  });

  it("asks at most one grid tile (128 pixels) beyond each edge of a map's view: a bounded share more than it shows", () => {
    const view = fc.record({
      lat: fc.double({ min: -80, max: 80, noNaN: true }),
      lon: fc.double({ min: -170, max: 170, noNaN: true }),
      zoom: fc.integer({ min: 3, max: 18 }),
      width: fc.integer({ min: 300, max: 2_000 }),
      height: fc.integer({ min: 300, max: 1_400 }),
    });
    fc.assert(
      fc.property(view, ({ lat, lon, zoom, width, height }) => {
        // The view in pixels of the map's zoom (256 to a tile), centred on (lat, lon).
        const px = 2 ** zoom * 256;
        const [cx, cy] = [gridX(lon, zoom) * 256, gridY(lat, zoom) * 256];
        const shown: Rectangle = {
          west: tileLongitude((cx - width / 2) / 256, zoom),
          east: tileLongitude((cx + width / 2) / 256, zoom),
          north: tileLatitude((cy - height / 2) / 256, zoom),
          south: tileLatitude((cy + height / 2) / 256, zoom),
        };
        fc.pre(shown.west > -180 && shown.east < 180 && shown.north < MERCATOR_LIMIT && shown.south > -MERCATOR_LIMIT && px > width);
        const asked = alignViewport(shown, zoom);
        const askedWidth = (gridX(asked.east, zoom) - gridX(asked.west, zoom)) * 256;
        const askedHeight = (gridY(asked.south, zoom) - gridY(asked.north, zoom)) * 256;
        // Contains the view (to the six decimals an edge is written with, a few pixels at zoom 18)...
        const slack = 1e-6 * 2 ** zoom * (256 / 360) * 4;
        expect(askedWidth).toBeGreaterThanOrEqual(width - slack);
        expect(askedHeight).toBeGreaterThanOrEqual(height - slack);
        // ...and is at most 128 pixels wider on each side: (1 + 256 / width) × (1 + 256 / height) its area.
        expect(askedWidth).toBeLessThanOrEqual(width + 256 + slack);
        expect(askedHeight).toBeLessThanOrEqual(height + 256 + slack);
      }),
    );
  });
});
