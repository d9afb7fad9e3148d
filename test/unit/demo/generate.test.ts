import { generateInventory } from '../../../stack/demo/generate';
import { calendarSpan } from '../../../stack/demo/calendar';
import { METROS } from '../../../stack/demo/metros';
import { calendarProblems, materialize, milesBetween, TODAY, type Materialized } from './fixture';

let inv: Materialized;
beforeAll(() => {
  inv = materialize();
});

describe('generateInventory', () => {
  it('is deterministic: the same inputs give byte-identical output', () => {
    const a = generateInventory({ seed: 7, homes: 400, today: TODAY });
    const b = generateInventory({ seed: 7, homes: 400, today: TODAY });
    expect(JSON.stringify([a.markets, a.properties, [...a.homes]])).toBe(JSON.stringify([b.markets, b.properties, [...b.homes]]));
  });

  it('gives different inventory for a different seed', () => {
    const a = generateInventory({ seed: 7, homes: 400, today: TODAY });
    const b = generateInventory({ seed: 8, homes: 400, today: TODAY });
    expect(JSON.stringify(a.properties)).not.toBe(JSON.stringify(b.properties));
    expect(JSON.stringify([...a.homes])).not.toBe(JSON.stringify([...b.homes]));
  });

  it('derives every timestamp from today, not from the clock', () => {
    const a = generateInventory({ seed: 7, homes: 50, today: '2030-01-10' });
    const stamps = [...a.properties.flatMap((p) => [p.created_at, p.updated_at]), ...[...a.homes].flatMap((h) => [h.created_at, h.updated_at])];
    expect(stamps.every((d) => d.getTime() < Date.parse('2030-01-11T00:00:00Z'))).toBe(true);
    expect(a.markets.every((m) => m.updated_at.toISOString() === '2030-01-10T00:00:00.000Z')).toBe(true);
  });

  it('scales buildings with homes at about ten homes per building, and yields exactly `homes` homes', () => {
    for (const homes of [0, 1, 250, 1000]) {
      const g = generateInventory({ seed: 1, homes, today: TODAY });
      expect([...g.homes]).toHaveLength(homes);
      expect(g.properties.length).toBe(homes === 0 ? 0 : Math.max(1, Math.round(homes / 10)));
    }
    expect(inv.homes).toHaveLength(3000);
    expect(inv.properties).toHaveLength(300);
    const perBuilding = new Map<string, number>();
    for (const h of inv.homes) perBuilding.set(h.property_id, (perBuilding.get(h.property_id) ?? 0) + 1);
    expect(perBuilding.size).toBe(300);
    expect(Math.min(...perBuilding.values())).toBeGreaterThanOrEqual(5);
    expect(Math.max(...perBuilding.values())).toBeLessThanOrEqual(16);
  });

  it('streams homes lazily: the first homes of 100,000 arrive without generating the rest', () => {
    const started = Date.now();
    const g = generateInventory({ seed: 3, homes: 100_000, today: TODAY });
    expect(Array.isArray(g.homes)).toBe(false);
    const it = g.homes[Symbol.iterator]();
    const first = it.next();
    expect(first.done).toBe(false);
    expect(first.value._id).toBe('home-000001');
    expect(Date.now() - started).toBeLessThan(5000);
    // Re-iterable: a second pass starts again from the first home.
    expect(g.homes[Symbol.iterator]().next().value).toEqual(first.value);
  });

  it('rejects bad options', () => {
    expect(() => generateInventory({ seed: 1.5, homes: 10, today: TODAY })).toThrow(/seed/);
    expect(() => generateInventory({ seed: 1, homes: -1, today: TODAY })).toThrow(/homes/);
    expect(() => generateInventory({ seed: 1, homes: 10, today: '2025-02-30' })).toThrow(/today/);
  });
});

describe('calendars', () => {
  it('are sorted, contiguous, half-open segments from 30 days before today to the 18-month horizon', () => {
    const span = calendarSpan(TODAY);
    expect(span).toEqual({ start: '2025-05-16', end: '2026-11-16' });
    const problems = calendarProblems(inv.homes, span);
    expect(problems).toEqual([]);
  });

  it('hold for other seeds and for awkward todays (leap day, year end)', () => {
    for (const [seed, today] of [
      [1, '2024-02-29'],
      [99, '2025-12-31'],
      [5, '2026-07-04'],
    ] as const) {
      const g = generateInventory({ seed, homes: 300, today });
      const homes = [...g.homes];
      const span = calendarSpan(today);
      expect(calendarProblems(homes, span)).toEqual([]);
      for (const h of homes) {
        for (const r of h.minimum_stay_rules) expect(r.start_date >= span.start && r.end_date <= span.end).toBe(true);
        for (const d of h.seasonal_discounts) expect(d.start_date >= span.start && d.end_date <= span.end).toBe(true);
      }
    }
  });
});

describe('references and identity', () => {
  it('resolves every foreign key', () => {
    const markets = new Map(inv.markets.map((m) => [m.slug, m]));
    for (const p of inv.properties) {
      const m = markets.get(p.market_slug)!;
      expect(m).toBeDefined();
      const city = m.cities.find((c) => c.slug === p.city_slug)!;
      expect(city).toBeDefined();
      expect([p.city, p.state]).toEqual([city.name, city.state]);
      const nb = m.neighborhoods.find((n) => n.id === p.neighborhood_id);
      expect(nb?.city_slug).toBe(p.city_slug);
    }
    for (const h of inv.homes) {
      const p = inv.propertyById.get(h.property_id)!;
      expect(p).toBeDefined();
      expect([h.market_slug, h.city_slug, h.neighborhood_id]).toEqual([p.market_slug, p.city_slug, p.neighborhood_id]);
    }
  });

  it('keeps ids and slugs unique and lowercase-hyphenated', () => {
    const slug = /^[a-z0-9]+(-[a-z0-9]+)*$/;
    const unique = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    unique(inv.homes.map((h) => h.slug));
    unique(inv.homes.map((h) => h._id));
    unique(inv.properties.map((p) => p.slug));
    unique(inv.properties.map((p) => p._id));
    unique(inv.markets.map((m) => m.slug));
    unique(inv.markets.flatMap((m) => m.cities.map((c) => c.slug)));
    unique(inv.markets.flatMap((m) => m.neighborhoods.map((n) => n.id)));
    for (const m of inv.markets) unique(m.neighborhoods.map((n) => n.slug));
    const all = [
      ...inv.homes.map((h) => h.slug),
      ...inv.properties.map((p) => p.slug),
      ...inv.markets.flatMap((m) => [m.slug, ...m.cities.map((c) => c.slug), ...m.neighborhoods.map((n) => n.slug)]),
    ];
    expect(all.filter((s) => !slug.test(s))).toEqual([]);
    expect(inv.homes.every((h) => h.slug.startsWith(`${h.city_slug}-`) && h.slug.endsWith(`-${h.unit_number.toLowerCase()}`))).toBe(true);
  });

  it('never gives a city the slug of another market (a market-or-city slug resolves to one market)', () => {
    const marketSlugs = new Set(inv.markets.map((m) => m.slug));
    for (const m of inv.markets) for (const c of m.cities) if (marketSlugs.has(c.slug)) expect(c.slug).toBe(m.slug);
  });
});

describe('metros', () => {
  it('has about a dozen real metros of 3-6 cities with 2-5 neighborhoods each', () => {
    expect(inv.markets.length).toBeGreaterThanOrEqual(12);
    for (const m of METROS) {
      expect(m.cities.length).toBeGreaterThanOrEqual(3);
      expect(m.cities.length).toBeLessThanOrEqual(6);
      for (const c of m.cities) {
        expect(c.neighborhoods.length).toBeGreaterThanOrEqual(2);
        expect(c.neighborhoods.length).toBeLessThanOrEqual(5);
        expect(c.radiusMiles).toBeLessThanOrEqual(4);
        // Display cities lie within the metro (real coordinates, not invented ones).
        expect(milesBetween(m.latitude, m.longitude, c.latitude, c.longitude)).toBeLessThan(45);
      }
    }
  });

  it('includes display cities in another state than their market', () => {
    const crossing = inv.markets.flatMap((m) => m.cities.filter((c) => c.state !== m.state).map((c) => `${c.slug}/${m.slug}`));
    expect(crossing).toEqual(
      expect.arrayContaining(['jersey-city/new-york', 'hoboken/new-york', 'arlington/washington-dc', 'bethesda/washington-dc', 'camden/philadelphia']),
    );
  });

  it('scatters buildings within their city radius', () => {
    const cities = new Map(METROS.flatMap((m) => m.cities).map((c) => [c.slug, c]));
    for (const p of inv.properties) {
      const c = cities.get(p.city_slug)!;
      expect(milesBetween(c.latitude, c.longitude, p.latitude, p.longitude)).toBeLessThanOrEqual(c.radiusMiles + 0.01);
    }
    // Every display city has inventory at this size.
    expect(new Set(inv.properties.map((p) => p.city_slug)).size).toBe(cities.size);
  });
});
