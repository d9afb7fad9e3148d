/**
 * The apartment search inside a polygon, on the real Elasticsearch over an indexed world, for random
 * polygons (star-shaped, 3 to 40 vertices, a block to a few states wide, either winding) with random
 * stays and filters, alone or in a market: every home found lies inside the polygon (by
 * @turf/boolean-point-in-polygon), and no home inside that matches is missing, against the same search
 * over the polygon's bounding box as a viewport, kept to the homes inside the polygon.
 */
import { mulberry32 } from '../../stack/demo/prng';
import { starPolygon, where } from '../support/polygons';
import { startFixture, type Fixture } from '../support/fixture';
import { loadWorld, type World } from '../support/search-model';
import { addDays } from '../../services/kernel/engine/dates';
import { searchApartments } from '../../services/search/apartments/apartment-search';
import { readPolygon, type PolygonVertex } from '../../services/search/shared/polygon';
import type { SearchParams } from '../../services/search/shared/search-params';
import type { SharedFilters } from '../../services/search/shared/filters';
import type { StayDates } from '../../services/stays/stay-dates';

let fx: Fixture;
let world: World;

beforeAll(async () => {
  fx = await startFixture({ homes: 600, seed: 11 });
  world = await loadWorld(fx.mongo.collections, fx.today);
}, 300_000);

afterAll(async () => {
  await fx?.close();
});

/** More than any search here finds: every match on one page. */
const ALL = 2_000;

type Pt = { latitude: number; longitude: number };

function randomStay(rnd: () => number): StayDates {
  const start = addDays(fx.today, 1 + Math.floor(rnd() * 150));
  const kind = Math.floor(rnd() * 3);
  if (kind === 0) return { kind: 'undated' };
  if (kind === 1) return { kind: 'start_only', start_date: start };
  const nights = [5, 30, 60][Math.floor(rnd() * 3)];
  return { kind: 'fixed', start_date: start, end_date: addDays(start, nights), nights };
}

function randomFilters(rnd: () => number): SharedFilters {
  const filters: SharedFilters = {};
  if (rnd() < 0.3) filters.min_bedrooms = 1;
  if (rnd() < 0.2) filters.parking = true;
  return filters;
}

interface Case {
  label: string;
  vertices: PolygonVertex[];
  params: SearchParams;
}

function randomCase(rnd: () => number, i: number): Case {
  const home = world.homes[Math.floor(rnd() * world.homes.length)];
  const center = { latitude: home.property.latitude + (rnd() - 0.5) * 0.05, longitude: home.property.longitude + (rnd() - 0.5) * 0.05 };
  const radius = [0.01, 0.04, 0.15, 0.6, 3][Math.floor(rnd() * 5)];
  const n = [3, 4, 6, 12, 20, 40][Math.floor(rnd() * 6)];
  const vertices = starPolygon(rnd, center, radius, n);
  const stay = randomStay(rnd);
  const priced = stay.kind === 'fixed' && rnd() < 0.4;
  const params: SearchParams = {
    // One case in three is in the market of the home it is drawn around as well.
    location: i % 3 === 0 ? { market: home.market, city: null } : null,
    polygon: readPolygon(vertices),
    filters: randomFilters(rnd),
    stay,
    // A fixed stay's limit is priced exactly for the homes whose price band straddles it.
    price: { min: null, max: priced ? (stay.nights < 30 ? 180 : 5000) : null },
    minRating: null,
    sort: (['price_asc', 'newest', 'availability'] as const)[Math.floor(rnd() * 3)],
  };
  return {
    label: `case ${i}: ${n} vertices, radius ${radius}°, ${JSON.stringify({ stay, filters: params.filters, max: params.price.max })}`,
    vertices,
    params,
  };
}

const bounds = (vs: readonly PolygonVertex[]) => ({
  south: Math.min(...vs.map((v) => v.latitude)),
  west: Math.min(...vs.map((v) => v.longitude)),
  north: Math.max(...vs.map((v) => v.latitude)),
  east: Math.max(...vs.map((v) => v.longitude)),
  zoom: 10,
});

async function found(params: SearchParams): Promise<{ total: number; homes: Array<{ slug: string; at: Pt }> }> {
  const res = await searchApartments(fx.svc.deps, params, 0, ALL, fx.today);
  return { total: res.total, homes: res.homes.map((h) => ({ slug: h.doc.slug, at: { latitude: h.doc.location.lat, longitude: h.doc.location.lon } })) };
}

describe('the apartment search inside a polygon, on Elasticsearch', () => {
  it('finds exactly the matching homes inside random polygons: none outside, none inside missing', async () => {
    const rnd = mulberry32(20261127);
    let nonEmpty = 0;
    for (let i = 0; i < 40; i++) {
      const { label, vertices, params } = randomCase(rnd, i);
      const inPolygon = await found(params);
      const inBox = await found({ ...params, polygon: null, viewport: bounds(vertices) });
      expect({ label, all: inPolygon.homes.length === inPolygon.total && inBox.homes.length === inBox.total }).toEqual({ label, all: true });
      // Every home found is inside the polygon (or on its edge).
      const outside = inPolygon.homes.filter((h) => where(vertices, h.at) === 'outside').map((h) => h.slug);
      expect({ label, outside }).toEqual({ label, outside: [] });
      // Every home of the bounding box's search that lies inside is found, and nothing the box's search did not find.
      const shown = new Set(inPolygon.homes.map((h) => h.slug));
      const missing = inBox.homes.filter((h) => where(vertices, h.at) === 'inside' && !shown.has(h.slug)).map((h) => h.slug);
      expect({ label, missing }).toEqual({ label, missing: [] });
      const boxed = new Set(inBox.homes.map((h) => h.slug));
      expect({ label, extra: inPolygon.homes.filter((h) => !boxed.has(h.slug)).map((h) => h.slug) }).toEqual({ label, extra: [] });
      if (inPolygon.total > 0 && inPolygon.total < inBox.total) nonEmpty += 1;
    }
    // The polygons cut through what their boxes find often enough for the comparison to mean something.
    expect(nonEmpty).toBeGreaterThan(5);
  }, 600_000);

  it('reads a clockwise polygon wider than 180° of longitude as the same shape counter-clockwise, not as one across the antimeridian', async () => {
    // Over the contiguous US and far beyond on both sides; clockwise as given.
    const wide: PolygonVertex[] = [
      { latitude: 20, longitude: -170 },
      { latitude: 60, longitude: -170 },
      { latitude: 60, longitude: -80 },
      { latitude: 60, longitude: 15 },
      { latitude: 20, longitude: 15 },
      { latitude: 20, longitude: -80 },
    ];
    const params: SearchParams = {
      location: null,
      polygon: readPolygon(wide),
      filters: {},
      stay: { kind: 'undated' },
      price: { min: null, max: null },
      minRating: null,
      sort: 'newest',
    };
    const all = await found({ ...params, polygon: null, viewport: { south: 20, west: -170, north: 60, east: 15, zoom: 2 } });
    expect(all.total).toBeGreaterThan(100);
    expect((await found(params)).total).toBe(all.total);
    expect((await found({ ...params, polygon: readPolygon([...wide].reverse()) })).total).toBe(all.total);
  });
});
