/**
 * The search page at / in headless Chromium: used with the keyboard alone, a Flex search, the national
 * map's clusters, the tiles of MAP_TILE_URL, and the JSON index for a client that does not ask for HTML.
 * Each page state is checked with axe-core (no serious or critical violation) and photographed into
 * test-artifacts/. What the page shows is compared with what the public GET API answers for the same
 * request (setup: test/e2e/shared/search-page-browser.ts).
 */
import sharp from 'sharp';
import { startService } from '../../services/main';
import { addDays } from '../../services/kernel/engine/dates';
import { alignViewport } from '../../services/kernel/map-tiles';
import type { Fixture } from '../support/fixture';
import { isViewportSearch, query, rendered, shownSlugs, waitUntil, type Answer } from '../support/search-page';
import type { Browser } from 'playwright-core';
import { PER_PAGE, searchPageHelpers, startSearchPageWorld } from './shared/search-page-browser';

let fx: Fixture;
let browser: Browser;
let market: string;

beforeAll(async () => {
  ({ fx, browser, market } = await startSearchPageWorld());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

const { api, newPage, check, marketName, pickMarket } = searchPageHelpers(() => ({ fx, browser }));

describe('the search page at /', () => {
  it('can be used with the keyboard alone: search from the form, open a result, and the apartment heading takes the focus', async () => {
    const { page } = await newPage(1024, 768);
    try {
      await page.goto(fx.url + '/');
      await rendered(page);
      const tabTo = async (matches: string): Promise<void> => {
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab');
          if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(matches)}) ?? false`)) return;
        }
        throw new Error(`Tab never reached ${matches}`);
      };
      await tabTo('#f-place');
      // The place box completes the market's name; ArrowDown reaches its option and Enter picks it (and searches).
      await page.keyboard.type(await marketName(market));
      await waitUntil(page, `document.getElementById('f-place').getAttribute('aria-expanded') === 'true'`);
      const isMarket = `document.getElementById(document.getElementById('f-place').getAttribute('aria-activedescendant') ?? '')?.matches('[data-type="market"][data-slug="${market}"]') ?? false`;
      for (let i = 0; i < 8 && !(await page.evaluate(isMarket)); i++) await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(isMarket)).toBe(true);
      await page.keyboard.press('Enter');
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('market')).toBe(market);
      // Search from the form searches the same place again.
      await tabTo('button[type=submit]');
      await page.keyboard.press('Enter');
      await rendered(page);
      expect(await page.locator('.result').count()).toBeGreaterThan(0);
      await tabTo('.result h3 a');
      const slug = await page.evaluate("document.activeElement?.closest('.result')?.getAttribute('data-slug')");
      await page.keyboard.press('Enter');
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('home')).toBe(slug);
      expect(await page.evaluate('document.activeElement?.id')).toBe('home-heading');
      // The browser's back button restores the search.
      await page.goBack();
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('home')).toBeNull();
      expect(await page.locator('.result').count()).toBeGreaterThan(0);
      await check(page, 'page-keyboard.png');
    } finally {
      await page.close();
    }
  });

  it("searches a Flex stay: the tier goes out as check_out=indefinite with committed_nights, and the list is the API's", async () => {
    // Flex stays need a long open stretch: the first move-in date and tier that finds some in the market.
    let found: { moveIn: string; tier: string; answer: Answer } | undefined;
    for (const days of [1, 3, 7, 14, 30, 60]) {
      for (const tier of ['180', '270', '365']) {
        const moveIn = addDays(fx.today, days);
        const answer = await api<Answer>(
          `/api/public/search?${query({ market, check_in: moveIn, check_out: 'indefinite', committed_nights: tier, page: '1', per_page: String(PER_PAGE) })}`,
        );
        if (!found && answer.total_count > 0) found = { moveIn, tier, answer };
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    const { moveIn, tier, answer: flex } = found!;
    const { page } = await newPage(1100, 800);
    try {
      await page.goto(fx.url + '/');
      await rendered(page);
      await pickMarket(page, market);
      await page.getByRole('radio', { name: 'Flex (open-ended)' }).check();
      expect(await page.locator('#f-check-out').isVisible()).toBe(false);
      await page.fill('#f-check-in', moveIn);
      await page.selectOption('#f-flex', tier);
      const asked = page.waitForRequest((r) => r.url().includes('/api/public/search?'));
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const sent = new URL((await asked).url()).searchParams;
      expect([sent.get('check_in'), sent.get('check_out'), sent.get('committed_nights')]).toEqual([moveIn, 'indefinite', tier]);
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('flex')).toBe(tier);
      expect(await shownSlugs(page)).toEqual(flex.homes.map((h) => h.slug));
      expect(await page.locator('.result .label').first().textContent()).toBe(flex.homes[0].display_price_label);
      await check(page, 'page-flex.png');
      // A resized window moves the map (Leaflet refits it) but is nobody's search of a new area.
      const moved: string[] = [];
      page.on('request', (r) => {
        if (isViewportSearch(r)) moved.push(r.url());
      });
      await page.setViewportSize({ width: 760, height: 700 });
      await page.waitForTimeout(1_000);
      expect(moved).toEqual([]);
      expect(new URL(page.url()).searchParams.get('area')).toBeNull();
      // Nor is it just after a click on the map that moved nothing (as when a scrollbar appears after
      // the last corner of a drawn shape): only a move the person began asks for the area.
      await page.locator('#map').click({ position: { x: 12, y: 150 } });
      await page.setViewportSize({ width: 900, height: 700 });
      await page.waitForTimeout(1_000);
      expect(moved).toEqual([]);
      expect(new URL(page.url()).searchParams.get('area')).toBeNull();
    } finally {
      await page.close();
    }
  });

  it('draws a national map area as clusters with their counts, and a click on one zooms in and asks the viewport search there', async () => {
    // The page asks the area of its URL widened to the viewport grid of zoom 4.
    const grid = alignViewport({ south: 24.5, west: -125, north: 49.5, east: -66.9 }, 4);
    const national = {
      sw_latitude: String(grid.south),
      sw_longitude: String(grid.west),
      ne_latitude: String(grid.north),
      ne_longitude: String(grid.east),
      zoom: '4',
    };
    const answer = await api<Answer & { clusters?: Array<{ tile: string; count: number }> }>(`/api/public/map-search?${query(national)}`);
    expect(answer.total_count).toBeGreaterThan(250);
    const clusters = answer.clusters ?? [];
    expect(clusters.length).toBeGreaterThan(1);
    const { page } = await newPage(1280, 860);
    try {
      await page.goto(`${fx.url}/?area=24.5,-125,49.5,-66.9,4`);
      await rendered(page);
      const markers = page.locator('.leaflet-marker-icon.cluster');
      expect(await markers.count()).toBe(clusters.length);
      expect(await page.locator('.leaflet-marker-icon.pin').count()).toBe(0);
      const counts = await markers.evaluateAll((els) => els.map((e) => Number(e.textContent)));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(answer.total_count);
      expect(await page.locator('#results-heading').textContent()).toBe(`${answer.total_count} homes in the map area`);
      await check(page, 'page-clusters.png');
      const biggest = [...clusters].sort((a, b) => b.count - a.count)[0];
      const zoomedIn = page.waitForRequest(isViewportSearch);
      await page.locator(`.cluster[data-tile="${biggest.tile}"]`).click();
      expect(Number(new URL((await zoomedIn).url()).searchParams.get('zoom'))).toBeGreaterThan(4);
      await rendered(page);
    } finally {
      await page.close();
    }
  });

  it('draws the tiles of MAP_TILE_URL, with their attribution, instead of the offline basemap', async () => {
    const tiled = await startService({ ...fx.config, mapTileUrl: 'https://tiles.example.test/{z}/{x}/{y}.png', mapTileAttribution: 'Tiles by Example' });
    const { page, requests } = await newPage(1100, 800);
    try {
      const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#dde6d5' } })
        .png()
        .toBuffer();
      await page.route('https://tiles.example.test/**', (route) => route.fulfill({ contentType: 'image/png', body: tile }));
      await page.goto(`${tiled.url}/?market=${market}`);
      await rendered(page);
      await page.locator('.pin').first().waitFor();
      await page.locator('img.leaflet-tile-loaded').first().waitFor();
      const tiles = requests.filter((u) => u.startsWith('https://tiles.example.test/'));
      expect(tiles.length).toBeGreaterThan(0);
      for (const u of tiles) expect(u).toMatch(/^https:\/\/tiles\.example\.test\/\d+\/\d+\/\d+\.png$/);
      expect(requests.filter((u) => /\/app\/us-states\.(?:[0-9a-f]{12}\.)?json/.test(u))).toEqual([]);
      expect(await page.locator('.leaflet-control-attribution').textContent()).toContain('Tiles by Example');
    } finally {
      await page.close();
      await tiled.close();
    }
  });

  it('answers a client that does not ask for HTML with the JSON index, as before', async () => {
    const res = await fx.get('/');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ service: 'furnished-catalog' });
    const page = await fetch(fx.url + '/', { headers: { Accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // The script by its content-hashed name (web/routes.ts).
    expect(await page.text()).toMatch(/<script src="\/app\/page\.[0-9a-f]{12}\.js" defer>/);
  });
});
