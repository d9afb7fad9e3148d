/**
 * The search page at / in headless Chromium: the filters' counts from the answer's facets (a choice with
 * none disabled, the price histogram above the ceiling), following a changed filter with one facets=true
 * request; and a shape drawn on the map with Leaflet-Geoman (real mouse clicks), which narrows the list and
 * the map to it, survives a reload from the URL and is cleared (a link with the shape alone searches inside
 * it), under the page's CSP; and the page's ready mark, which only the newest search of a state sets.
 * Each state is checked
 * with axe-core and photographed into test-artifacts/ (setup: test/e2e/shared/search-page-browser.ts).
 */
import type { Browser, Page, Request } from 'playwright-core';
import { bedroomsCount, FILTERS, RATINGS, withCount, type Facets } from '../../services/web/app/facets';
import type { Fixture } from '../support/fixture';
import { apiPath, query, rendered, shownSlugs, waitUntil, type Answer } from '../support/search-page';
import { PER_PAGE, searchPageHelpers, startSearchPageWorld } from './shared/search-page-browser';

let fx: Fixture;
let browser: Browser;
let market: string;
let stay: { check_in: string; check_out: string };

beforeAll(async () => {
  const world = await startSearchPageWorld();
  ({ fx, browser, market } = world);
  stay = { check_in: world.checkIn, check_out: world.checkOut };
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

const { api, newPage, check } = searchPageHelpers(() => ({ fx, browser }));

type Faceted = Answer & { facets: Facets };

const listSearch = (extra: Record<string, string>): Promise<Faceted> =>
  api<Faceted>(`/api/public/search?${query({ market, ...stay, ...extra, page: '1', per_page: String(PER_PAGE), price_unit: 'per_month', facets: 'true' })}`);

/** What the form shows for each count of `facets`: the labels with their counts, and which choices are disabled. */
async function expectCounts(page: Page, facets: Facets): Promise<void> {
  for (const [name, label] of FILTERS) {
    const count = facets.filters.find((f) => f.filter === name)!.count;
    const checked = await page.locator(`input[name=${name}]`).isChecked();
    expect([name, await page.locator(`[data-filter-name=${name}]`).textContent()]).toEqual([name, ` ${withCount(label, count)}`]);
    expect([name, await page.locator(`input[name=${name}]`).isDisabled()]).toEqual([name, count === 0 && !checked]);
  }
  expect(await page.locator('#f-bedrooms option').allTextContents()).toEqual(
    (
      [
        [null, 'Any'],
        [0, 'Studio or more'],
        [1, '1+'],
        [2, '2+'],
        [3, '3+'],
      ] as const
    ).map(([n, label]) => withCount(label, bedroomsCount(facets, n))),
  );
  expect(await page.locator('#f-rating option').allTextContents()).toEqual([
    'Any rating',
    ...RATINGS.map(([name, label]) => withCount(label, facets.guest_rating.find((r) => r.guest_rating === name)?.count ?? 0)),
  ]);
  // The histogram: one bar per bucket, in order, with its count.
  const bars = await page
    .locator('[data-testid=price-histogram] rect')
    .evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-min'), r.getAttribute('data-count')]));
  expect(bars).toEqual(facets.price.buckets.map((b) => [String(b.min), String(b.count)]));
}

/** Content-Security-Policy violations the page reports (the drawing tools run under the page's policy). */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await page.addInitScript("document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.effectiveDirective + ' ' + e.blockedURI))");
  return violations;
}

describe('the search page at /', () => {
  it("shows each filter's, bedroom and rating count from the answer's facets with a price histogram, and the counts follow a changed filter", async () => {
    const { page, requests } = await newPage(1280, 1000);
    try {
      const asked: Request[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/public/') && r.url().includes('facets=true')) asked.push(r);
      });
      await page.goto(`${fx.url}/?${query({ market, ...stay })}`);
      await rendered(page);
      const first = await listSearch({});
      expect(first.total_count).toBeGreaterThan(PER_PAGE);
      expect(asked.map(apiPath)).toEqual([
        `/api/public/search?${query({ market, ...stay, page: '1', per_page: String(PER_PAGE), price_unit: 'per_month', facets: 'true' })}`,
      ]);
      await expectCounts(page, first.facets);
      await check(page, 'page-facets-1.png');

      // A filter that keeps some homes but not all: ticked, it is searched once, with its counts.
      const pick = first.facets.filters.filter((f) => f.count > 0 && f.count < first.total_count).sort((a, b) => b.count - a.count)[0];
      expect(pick).toBeDefined();
      asked.length = 0;
      await page.check(`input[name=${pick.filter}]`);
      await waitUntil(page, `document.body.dataset.ready === location.search && location.search.includes(${JSON.stringify(pick.filter)})`);
      expect(asked).toHaveLength(1);
      const narrowed = await listSearch({ [pick.filter]: 'true' });
      expect(apiPath(asked[0])).toBe(
        `/api/public/search?${query({ market, ...stay, [pick.filter]: 'true', page: '1', per_page: String(PER_PAGE), price_unit: 'per_month', facets: 'true' })}`,
      );
      expect(narrowed.total_count).toBe(pick.count);
      expect(await shownSlugs(page)).toEqual(narrowed.homes.map((h) => h.slug));
      await expectCounts(page, narrowed.facets);

      // A price ceiling greys the bars past it, as it is typed.
      const buckets = narrowed.facets.price.buckets;
      const ceiling = buckets[Math.floor(buckets.length / 2)].max;
      await page.fill('#f-max-price', String(ceiling));
      const out = await page.locator('[data-testid=price-histogram] rect.out').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('data-min'))));
      expect(out).toEqual(buckets.filter((b) => b.max > ceiling).map((b) => b.min));
      await check(page, 'page-facets-2.png');
      expect(requests.filter((u) => u.startsWith('pageerror'))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('marks a state ready only when its newest search is drawn, not when an older search of the same state gives way', async () => {
    const { page, requests } = await newPage(1280, 1000);
    try {
      await page.goto(`${fx.url}/?${query({ market, ...stay })}`);
      await rendered(page);
      const whole = await listSearch({});
      // Every list search is held until the test lets it through.
      const held: Array<() => Promise<void>> = [];
      const listSearches = (url: URL): boolean => url.pathname === '/api/public/search';
      await page.route(listSearches, (route) => void held.push(() => route.continue().catch(() => undefined)));
      await page.selectOption('#f-bedrooms', '1');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await waitUntil(page, 'new URLSearchParams(location.search).get("bedrooms") === "1"');
      for (let i = 0; i < 50 && held.length === 0; i++) await page.waitForTimeout(20);
      // The same state searched again (the Search button pressed twice): the first search gives way.
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      for (let i = 0; i < 50 && held.length < 2; i++) await page.waitForTimeout(20);
      expect(held.length).toBeGreaterThanOrEqual(2);
      await page.waitForTimeout(300);
      expect(await page.evaluate('document.body.dataset.ready === location.search')).toBe(false);
      await page.unroute(listSearches);
      for (const release of held) await release();
      await rendered(page);
      const narrowed = await listSearch({ bedrooms: '1' });
      expect(narrowed.total_count).toBeLessThan(whole.total_count);
      expect(await shownSlugs(page)).toEqual(narrowed.homes.map((h) => h.slug));
      // The state shown, searched again: not ready until that search is drawn (its list replaces the one shown).
      held.length = 0;
      await page.route(listSearches, (route) => void held.push(() => route.continue().catch(() => undefined)));
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      for (let i = 0; i < 50 && held.length === 0; i++) await page.waitForTimeout(20);
      expect(held.length).toBe(1);
      expect(await page.evaluate('document.body.dataset.ready === location.search')).toBe(false);
      await page.unroute(listSearches);
      for (const release of held) await release();
      await rendered(page);
      expect(await shownSlugs(page)).toEqual(narrowed.homes.map((h) => h.slug));
      expect(requests.filter((u) => u.startsWith('pageerror'))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('narrows the list and the map to a shape drawn on the map, keeps it through a reload, and clears it', async () => {
    const { page, requests } = await newPage(1280, 1000);
    const violations = await watchCsp(page);
    try {
      await page.goto(`${fx.url}/?${query({ market, ...stay })}`);
      await rendered(page);
      const whole = await listSearch({});
      await page.locator('.pin').first().waitFor();
      await page.locator('#map').scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: 'Draw an area' }).click();
      await waitUntil(page, "document.getElementById('map').classList.contains('drawing')");

      // A rectangle over the west half of the pins, clicked corner by corner, closed on its first corner.
      const map = (await page.locator('#map').boundingBox())!;
      const xs = (await page.locator('.pin').evaluateAll((pins) => pins.map((p) => p.getBoundingClientRect().x + p.getBoundingClientRect().width / 2))).sort(
        (a, b) => a - b,
      );
      const split = xs[Math.floor(xs.length / 2)];
      const [west, north, south] = [map.x + map.width * 0.1, map.y + map.height * 0.15, map.y + map.height * 0.95];
      const corners = [
        [west, north],
        [split, north],
        [split, south],
        [west, south],
        [west, north],
      ];
      for (const [x, y] of corners) await page.mouse.click(x, y);
      await waitUntil(page, "document.body.dataset.ready === location.search && new URLSearchParams(location.search).has('polygon')");
      const polygon = new URL(page.url()).searchParams.get('polygon')!;
      expect(polygon.split(';')).toHaveLength(4);
      const inside = await listSearch({ polygon });
      expect(inside.total_count).toBeGreaterThan(0);
      expect(inside.total_count).toBeLessThan(whole.total_count);
      expect(await shownSlugs(page)).toEqual(inside.homes.map((h) => h.slug));
      expect(await page.locator('#results-heading').textContent()).toBe(
        `${inside.total_count} home${inside.total_count === 1 ? '' : 's'} in the area drawn on the map`,
      );
      const pins = await api<Answer>(`/api/public/map-search?${query({ market, ...stay, polygon })}`);
      expect(await page.locator('.pin').count()).toBe(pins.homes.length);
      const [lats, lons] = [0, 1].map((i) => polygon.split(';').map((v) => Number(v.split(',')[i])));
      for (const h of pins.homes) {
        expect(h.latitude >= Math.min(...lats) && h.latitude <= Math.max(...lats) && h.longitude >= Math.min(...lons) && h.longitude <= Math.max(...lons)).toBe(
          true,
        );
      }
      expect(await page.locator('[data-testid=search-shape]').count()).toBe(1);
      await check(page, 'page-draw-1.png');

      // A reload (or a shared link) searches the same shape and draws it.
      const again = page.waitForRequest((r) => r.url().includes('/api/public/search?'));
      await page.reload();
      expect(new URL((await again).url()).searchParams.get('polygon')).toBe(polygon);
      await rendered(page);
      expect(await shownSlugs(page)).toEqual(inside.homes.map((h) => h.slug));
      expect(await page.locator('[data-testid=search-shape]').count()).toBe(1);
      await check(page, 'page-draw-2-reloaded.png');

      await page.getByRole('button', { name: 'Clear the area' }).click();
      await waitUntil(page, "document.body.dataset.ready === location.search && !new URLSearchParams(location.search).has('polygon')");
      expect(await shownSlugs(page)).toEqual(whole.homes.map((h) => h.slug));
      expect(await page.locator('[data-testid=search-shape]').count()).toBe(0);

      // A link with the shape alone (no place) searches inside it, across markets.
      await page.goto(`${fx.url}/?${query({ ...stay, polygon })}`);
      await rendered(page);
      const alone = await api<Answer>(`/api/public/search?${query({ ...stay, polygon, page: '1', per_page: String(PER_PAGE) })}`);
      expect(alone.total_count).toBe(inside.total_count);
      expect(await shownSlugs(page)).toEqual(alone.homes.map((h) => h.slug));
      expect(await page.locator('[data-testid=search-shape]').count()).toBe(1);
      expect(violations).toEqual([]);
      expect(requests.filter((u) => u.startsWith('pageerror') || (!u.startsWith(fx.url) && !u.startsWith(new URL(fx.config.publicBaseUrl).origin)))).toEqual(
        [],
      );
    } finally {
      await page.close();
    }
  });
});
