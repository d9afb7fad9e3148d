/**
 * The box a shape-placed search's homes lie in and the markets it reaches (services/search/shared/search-area.ts),
 * the routing it sends (area-routing.ts), and the extents kept per index generation (kernel/store/market-extents.ts).
 */
import fc from 'fast-check';
import { MarketExtents, parseMarketExtents, type MarketExtent } from '../../../services/kernel/store/market-extents';
import { areaRouting } from '../../../services/search/shared/area-routing';
import { haversineMiles } from '../../../services/search/shared/distance';
import { readPolygon } from '../../../services/search/shared/polygon';
import { AREA_MARGIN_DEGREES, boxesMeet, circleBox, marketsMeeting, routingList, searchArea } from '../../../services/search/shared/search-area';

const boston: MarketExtent = { market: 'boston', box: { south: 42.2, west: -71.2, north: 42.45, east: -70.9 } };
const cambridge: MarketExtent = { market: 'cambridge', box: { south: 42.35, west: -71.16, north: 42.4, east: -71.08 } };
const austin: MarketExtent = { market: 'austin', box: { south: 30.1, west: -97.9, north: 30.5, east: -97.5 } };
const EXTENTS = [boston, cambridge, austin];

const triangle = (lat: number, lon: number, d: number) =>
  readPolygon([
    { latitude: lat, longitude: lon },
    { latitude: lat, longitude: lon + d },
    { latitude: lat + d, longitude: lon },
  ]);

describe('searchArea', () => {
  it("is a polygon's vertex box grown by the margin", () => {
    const m = AREA_MARGIN_DEGREES;
    expect(searchArea({ polygon: triangle(30.2, -97.8, 0.1), filters: {} })).toEqual({ south: 30.2 - m, west: -97.8 - m, north: 30.3 + m, east: -97.7 + m });
  });

  it('is the meet of the boxes of every shape given, and null when none is', () => {
    const m = AREA_MARGIN_DEGREES;
    const area = searchArea({ polygon: triangle(42, -71.5, 1), viewport: { south: 42.3, west: -71.3, north: 43.5, east: -70, zoom: 9 }, filters: {} });
    expect(area).toEqual({ south: 42.3 - m, west: -71.3 - m, north: 43 + m, east: -70.5 + m });
    expect(searchArea({ filters: { pets: true } })).toBeNull();
  });

  it('holds every point of a near circle (sampled on its edge at every bearing)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        (lat, lon, miles) => {
          const box = circleBox({ lat, lon, miles });
          // Checked bearing by bearing, asserted once a case (each expect() costs more than the check).
          const wrong: Array<{ bearing: number; p: { lat: number; lon: number }; miles: number; inside: boolean }> = [];
          for (let bearing = 0; bearing < 360; bearing += 5) {
            const p = destination(lat, lon, miles * 0.999999, bearing);
            const away = haversineMiles({ lat, lon }, p);
            const inside = p.lat >= box.south && p.lat <= box.north && p.lon >= box.west && p.lon <= box.east;
            if (away > miles || !inside) wrong.push({ bearing, p, miles: away, inside });
          }
          expect(wrong).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads every longitude for a circle that reaches a pole or crosses the antimeridian', () => {
    expect(circleBox({ lat: 88.9, lon: 10, miles: 100 })).toMatchObject({ west: -180, east: 180, north: 90 });
    expect(circleBox({ lat: 0, lon: 179.9, miles: 50 })).toMatchObject({ west: -180, east: 180 });
  });
});

/** The point `miles` from (lat, lon) along `bearing` degrees, on the sphere of the search's distances. */
function destination(lat: number, lon: number, miles: number, bearing: number): { lat: number; lon: number } {
  const r = miles / (6_371_008.7714 / 1_609.344);
  const [φ, λ, θ] = [(lat * Math.PI) / 180, (lon * Math.PI) / 180, (bearing * Math.PI) / 180];
  const φ2 = Math.asin(Math.sin(φ) * Math.cos(r) + Math.cos(φ) * Math.sin(r) * Math.cos(θ));
  const λ2 = λ + Math.atan2(Math.sin(θ) * Math.sin(r) * Math.cos(φ), Math.cos(r) - Math.sin(φ) * Math.sin(φ2));
  return { lat: (φ2 * 180) / Math.PI, lon: (((λ2 * 180) / Math.PI + 540) % 360) - 180 };
}

describe('marketsMeeting', () => {
  it('names the markets whose extent the box meets, edges included, in slug order', () => {
    expect(marketsMeeting({ south: 42.39, west: -71.1, north: 42.5, east: -71 }, EXTENTS)).toEqual(['boston', 'cambridge']);
    expect(marketsMeeting({ south: 30.5, west: -97.5, north: 31, east: -97 }, EXTENTS)).toEqual(['austin']);
    expect(marketsMeeting({ south: 35, west: -90, north: 36, east: -89 }, EXTENTS)).toEqual([]);
  });

  it('meets nothing with an empty box (shapes that do not overlap)', () => {
    expect(boxesMeet({ south: 43, west: -71.2, north: 42, east: -70 }, boston.box)).toBe(false);
  });
});

describe('routingList', () => {
  it('joins each key once, sorted, with commas', () => {
    expect(routingList(['b', 'a', 'b'])).toBe('a,b');
  });
});

describe('areaRouting', () => {
  const keys = { keyOf: async (m: string) => `key-${m}` };

  it("is the keys of the markets the area meets; one market's shard when it meets none; every shard when the extents are unknown", async () => {
    const known = { current: async () => EXTENTS };
    expect(await areaRouting({ south: 42.39, west: -71.1, north: 42.5, east: -71 }, known, keys)).toBe('key-boston,key-cambridge');
    expect(await areaRouting({ south: 35, west: -90, north: 36, east: -89 }, known, keys)).toBe('key-austin');
    expect(await areaRouting(boston.box, { current: async () => null }, keys)).toBeUndefined();
    expect(await areaRouting(boston.box, { current: () => Promise.reject(new Error('no index')) }, keys)).toBeUndefined();
  });
});

describe('parseMarketExtents', () => {
  it('reads each bucket geo_bounds as a box, leaving out a market without bounds', () => {
    const aggs = {
      markets: {
        buckets: [
          { key: 'austin', doc_count: 3, extent: { bounds: { top_left: { lat: 30.5, lon: -97.9 }, bottom_right: { lat: 30.1, lon: -97.5 } } } },
          { key: 'nowhere', doc_count: 1, extent: {} },
        ],
      },
    };
    expect(parseMarketExtents(aggs)).toEqual([austin]);
  });
});

describe('MarketExtents', () => {
  const gen = (n: number, applying = false) => ({ read: async () => ({ n, applying }) });

  it('reads the extents once per generation, and again when the generation moves', async () => {
    let at = { n: 1, applying: false };
    let reads = 0;
    const extents = new MarketExtents({ read: async () => at }, async () => (reads++, [austin]));
    await extents.current();
    await extents.current();
    expect(reads).toBe(1);
    at = { n: 3, applying: false };
    expect(await extents.current()).toEqual([austin]);
    expect(reads).toBe(2);
  });

  it('knows none while a run writes or the generation cannot be read', async () => {
    const read = async () => [austin];
    expect(await new MarketExtents(gen(4, true), read).current()).toBeNull();
    expect(await new MarketExtents({ read: async () => null }, read).current()).toBeNull();
  });

  it('keeps no failed read', async () => {
    let fail = true;
    const extents = new MarketExtents(gen(1), async () => {
      if (fail) throw new Error('down');
      return [austin];
    });
    await expect(extents.current()).rejects.toThrow('down');
    fail = false;
    expect(await extents.current()).toEqual([austin]);
  });
});
