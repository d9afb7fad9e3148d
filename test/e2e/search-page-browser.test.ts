/**
 * The search page at / in headless Chromium: a person searches a market for a
 * 30-night stay, narrows by price and bedrooms, zooms and pans the map (the viewport search is asked
 * and the list follows), opens an apartment, quotes other dates, compares three homes, reads the
 * policies, and opens the shared URL on a phone-sized screen to find the same search. Each page state
 * is checked with axe-core (no serious or critical violation) and photographed into test-artifacts/.
 * What the page shows is compared with what the public GET API answers for the same request.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import sharp from 'sharp';
import { startService } from '../../services/main';
import { addDays } from '../../services/kernel/engine/dates';
import { checkState } from '../support/axe';
import { CHROMIUM_HINT, findChromium } from '../support/chromium';
import { startFixture, type Fixture } from '../support/fixture';
import { apiPath, isViewportSearch, money, query, recordedPage, rendered, shownSlugs, waitUntil, type Answer, type RecordedPage } from '../support/search-page';

const CHROMIUM = findChromium();
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');
const PER_PAGE = 12;

let fx: Fixture;
let browser: Browser;
let market: string;
let checkIn: string;
let checkOut: string;

async function api<T>(pathAndQuery: string): Promise<T> {
  const res = await fx.get(pathAndQuery);
  expect(res.status).toBe(200);
  return res.body as T;
}

beforeAll(async () => {
  if (!CHROMIUM) throw new Error(CHROMIUM_HINT);
  mkdirSync(ARTIFACTS, { recursive: true });
  fx = await startFixture({ homes: 320, seed: 5 });
  checkIn = addDays(fx.today, 30);
  checkOut = addDays(checkIn, 30);
  // The market with the most homes for the stay: enough to narrow and to compare.
  const { markets } = await api<{ markets: Array<{ slug: string }> }>('/api/public/markets');
  let best = -1;
  for (const m of markets) {
    const a = await api<Answer>(`/api/public/search?${query({ market: m.slug, check_in: checkIn, check_out: checkOut, per_page: '1' })}`);
    if (a.total_count > best) [best, market] = [a.total_count, m.slug];
  }
  expect(best).toBeGreaterThan(PER_PAGE);
  browser = await chromium.launch({ executablePath: CHROMIUM });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

const newPage = (width: number, height: number): Promise<RecordedPage> => recordedPage(browser, fx, width, height);
const check = (page: Page, shot: string): Promise<void> => checkState(page, path.join(ARTIFACTS, shot));

describe('the search page at /', () => {
  it('takes a person from a market search through the map, an apartment, a quote and a comparison, and a shared URL restores the search', async () => {
    const { page, requests } = await newPage(1280, 860);
    try {
      // 1. A market and a 30-night stay.
      await page.goto(fx.url + '/');
      await rendered(page);
      expect(await page.locator('#f-market option').count()).toBeGreaterThan(1); // fed by GET /markets
      await page.selectOption('#f-market', market);
      await page.fill('#f-check-in', checkIn);
      await page.fill('#f-check-out', checkOut);
      await page.getByRole('button', { name: 'Search' }).click();
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('market')).toBe(market);
      const first = await api<Answer>(`/api/public/search?${query({ market, check_in: checkIn, check_out: checkOut, page: '1', per_page: String(PER_PAGE) })}`);
      expect(await shownSlugs(page)).toEqual(first.homes.map((h) => h.slug));
      expect(await page.locator('#results-heading').textContent()).toBe(`${first.total_count} homes in ${await page.locator('#f-market option:checked').textContent().then((t) => t!.replace('All of ', ''))}`);
      const card = page.locator('.result').first();
      expect(await card.locator('.amount').textContent()).toBe(money(first.homes[0].display_price_with_discount));
      expect(await card.locator('.label').textContent()).toBe(first.homes[0].display_price_label);
      // The map shows the market's pins over the offline basemap (the states, drawn as paths).
      const pins = await api<Answer>(`/api/public/map-search?${query({ market, check_in: checkIn, check_out: checkOut })}`);
      await page.locator('.pin').first().waitFor();
      expect(await page.locator('.pin').count()).toBe(pins.homes.length);
      await waitUntil(page, "document.querySelectorAll('.leaflet-overlay-pane path').length > 40");
      await check(page, 'page-1-search.png');

      // 2. Narrowed to one bedroom or more and a monthly budget that keeps about half of them.
      const oneBedroom = await api<Answer>(`/api/public/map-search?${query({ market, check_in: checkIn, check_out: checkOut, bedrooms: '1' })}`);
      const prices = oneBedroom.homes.map((h) => h.display_price_with_discount).sort((a, b) => a - b);
      expect(prices.length).toBeGreaterThan(3);
      const maxPrice = prices[Math.floor(prices.length / 2)];
      await page.selectOption('#f-bedrooms', '1');
      await page.fill('#f-max-price', String(maxPrice));
      const narrowedRequest = page.waitForRequest((r) => r.url().includes('/api/public/search?') && r.url().includes(`max_price=${maxPrice}`));
      await page.getByRole('button', { name: 'Search' }).click();
      expect(new URL((await narrowedRequest).url()).searchParams.get('bedrooms')).toBe('1');
      await rendered(page);
      const narrowed = await api<Answer>(
        `/api/public/search?${query({ market, check_in: checkIn, check_out: checkOut, bedrooms: '1', max_price: String(maxPrice), price_unit: 'per_month', page: '1', per_page: String(PER_PAGE) })}`,
      );
      expect(narrowed.total_count).toBeGreaterThan(0);
      expect(narrowed.total_count).toBeLessThan(first.total_count);
      expect(await shownSlugs(page)).toEqual(narrowed.homes.map((h) => h.slug));
      for (const h of narrowed.homes) expect(h.display_price_with_discount).toBeLessThanOrEqual(maxPrice);
      await check(page, 'page-2-narrowed.png');

      // 3. Zoom out, then pan with the keyboard: each move asks the viewport search, and the list follows.
      const viewportAsked = page.waitForRequest(isViewportSearch);
      await page.getByRole('button', { name: 'Zoom out' }).click();
      let asked = await viewportAsked;
      await rendered(page);
      const followList = async (request: Request): Promise<Answer> => {
        const answer = await api<Answer>(apiPath(request));
        const sent = new URL(request.url()).searchParams;
        expect(sent.get('max_price')).toBe(String(maxPrice));
        expect(sent.has('market')).toBe(false); // the map area stands in for the market
        expect(await shownSlugs(page)).toEqual(answer.homes.slice(0, PER_PAGE).map((h) => h.slug));
        expect(await page.locator('#results-heading').textContent()).toBe(`${answer.total_count} home${answer.total_count === 1 ? '' : 's'} in the map area`);
        const [s, w, n, e] = ['sw_latitude', 'sw_longitude', 'ne_latitude', 'ne_longitude'].map((k) => Number(sent.get(k)));
        for (const h of answer.homes) expect(h.latitude >= s && h.latitude <= n && h.longitude >= w && h.longitude <= e).toBe(true);
        expect(new URL(page.url()).searchParams.get('area')).toBe([s, w, n, e].join(',') + `,${sent.get('zoom')}`);
        return answer;
      };
      const zoomedOut = await followList(asked);
      expect(zoomedOut.total_count).toBeGreaterThanOrEqual(narrowed.total_count);
      const zoomSent = Number(new URL(asked.url()).searchParams.get('zoom'));

      const moves: Request[] = [];
      page.on('request', (r) => {
        if (isViewportSearch(r)) moves.push(r);
      });
      await page.locator('#map').focus();
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
      await waitUntil(page, "new URLSearchParams(location.search).get('area') !== null");
      for (let i = 0; i < 50 && moves.length === 0; i++) await page.waitForTimeout(100);
      await page.waitForTimeout(800); // the pan has settled: the last move's search is the one shown
      await rendered(page);
      asked = moves[moves.length - 1];
      expect(asked.url()).not.toBe((await viewportAsked).url());
      expect(Number(new URL(asked.url()).searchParams.get('zoom'))).toBe(zoomSent);
      expect(Number(new URL(asked.url()).searchParams.get('sw_longitude'))).toBeGreaterThan(-180);
      const panned = await followList(asked);
      const sharedUrl = page.url();
      const sharedList = await shownSlugs(page);
      const sharedRequest = new URL(asked.url()).searchParams;
      await check(page, 'page-3-map-moved.png');
      expect(panned.homes.length).toBeGreaterThan(0);

      // 4. An apartment: photos, bookable windows, the quote for the stay and the reservation link.
      const slug = sharedList[0];
      await page.locator(`#result-${slug} h3 a`).click();
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('home')).toBe(slug);
      const stay = { check_in: checkIn, check_out: checkOut };
      const home = await api<{
        name: string;
        photos: unknown[];
        availability: { bookable_windows: Array<{ start_date: string; end_date: string | null; minimum_nightly_stay: number; fits_minimum_stay: boolean }> };
      }>(`/api/public/homes/${slug}`);
      const booking = await api<{ reservation_link: string }>(`/api/public/homes/${slug}?${query(stay)}`);
      expect(await page.locator('#home-heading').textContent()).toBe(home.name);
      expect(await page.evaluate('document.activeElement.id')).toBe('home-heading');
      expect(await page.locator('.photos img').count()).toBe(home.photos.length);
      expect(await page.locator('.windows tbody tr').count()).toBe(home.availability.bookable_windows.length);
      // The whole calendar (undated read), and the reservation link of the stay (dated read).
      expect(home.availability.bookable_windows.length).toBeGreaterThan(0);
      expect(await page.locator('a.reserve').getAttribute('href')).toBe(booking.reservation_link);
      expect(booking.reservation_link).toContain(`start_date=${checkIn}`);
      const quote = await api<{ available: boolean; display_price_with_discount: number }>(`/api/public/homes/${slug}/quote?${query(stay)}`);
      expect(quote.available).toBe(true);
      expect(await page.locator('.quote .amount').textContent()).toBe(money(quote.display_price_with_discount));
      await check(page, 'page-4-apartment.png');

      // 5. A quote for other dates: a later stay inside one of its bookable windows.
      const later = home.availability.bookable_windows
        .filter((w) => w.fits_minimum_stay)
        .map((w) => {
          const start = w.start_date > addDays(checkOut, 7) ? w.start_date : addDays(checkOut, 7);
          return { start, end: addDays(start, Math.max(30, w.minimum_nightly_stay)), until: w.end_date };
        })
        .find((c) => c.start <= addDays(fx.today, 300) && (c.until === null || c.end <= c.until));
      const other = later ?? { start: addDays(checkIn, 7), end: addDays(checkOut, 7) };
      await page.fill('#q-check-in', other.start);
      await page.fill('#q-check-out', other.end);
      const quoteAsked = page.waitForRequest((r) => r.url().includes(`/homes/${slug}/quote?`) && r.url().includes(`check_in=${other.start}`));
      await page.getByRole('button', { name: 'Get a quote' }).click();
      await quoteAsked;
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('check_in')).toBe(other.start);
      const otherStay = { check_in: other.start, check_out: other.end };
      const otherQuote = await api<{ available: boolean; display_price_with_discount?: number; unavailable_reason?: string }>(`/api/public/homes/${slug}/quote?${query(otherStay)}`);
      if (otherQuote.available) {
        expect(await page.locator('.quote .amount').textContent()).toBe(money(otherQuote.display_price_with_discount!));
        const reread = await api<{ reservation_link: string }>(`/api/public/homes/${slug}?${query(otherStay)}`);
        expect(await page.locator('a.reserve').getAttribute('href')).toBe(reread.reservation_link);
        expect(reread.reservation_link).toContain(`start_date=${other.start}`);
      } else {
        expect(await page.locator('.quote .unavailable').textContent()).toContain(otherQuote.unavailable_reason!);
      }
      await check(page, 'page-5-quote.png');

      // 6. Back to the market, without the narrowing, and three homes side by side.
      await page.getByRole('link', { name: '← Back to results' }).click();
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('area')).not.toBeNull(); // still the map area
      await page.getByRole('link', { name: /^Search all of / }).click();
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('area')).toBeNull();
      await page.selectOption('#f-bedrooms', '');
      await page.fill('#f-max-price', '');
      await page.fill('#f-check-in', checkIn);
      await page.fill('#f-check-out', checkOut);
      await page.getByRole('button', { name: 'Search' }).click();
      await rendered(page);
      expect(await shownSlugs(page)).toEqual(first.homes.map((h) => h.slug));
      const chosen = first.homes.slice(0, 3);
      for (const [i, h] of chosen.entries()) {
        // Ticked with the keyboard: the list is redrawn and the focus stays on the box.
        const box = page.locator(`#result-${h.slug} .compare-box`);
        expect(await box.getAttribute('aria-label')).toBe(`Compare ${h.name}`);
        await box.focus();
        await page.keyboard.press('Space');
        await waitUntil(page, `new URLSearchParams(location.search).get('compare') === ${JSON.stringify(chosen.slice(0, i + 1).map((c) => c.slug).join(','))}`);
        expect(await page.evaluate(`document.activeElement === document.querySelector('#result-${h.slug} .compare-box')`)).toBe(true);
      }
      expect(new URL(page.url()).searchParams.get('compare')).toBe(chosen.map((h) => h.slug).join(','));
      await page.getByRole('link', { name: 'Compare 3 homes' }).click();
      await rendered(page);
      expect(await page.locator('.compare-table thead th').allTextContents()).toEqual(chosen.map((h) => h.name));
      const firstRead = await api<{ display_price_with_discount: number }>(`/api/public/homes/${chosen[0].slug}?${query(stay)}`);
      expect(await page.locator('.compare-table tbody tr').filter({ hasText: 'Price' }).locator('td').first().textContent()).toContain(money(firstRead.display_price_with_discount));
      await check(page, 'page-6-compare.png');

      // 7. The policy answers.
      await page.getByRole('link', { name: 'Policies' }).click();
      await rendered(page);
      const { entries } = await api<{ entries: Array<{ answer: string }> }>('/api/public/policies-faq');
      expect(await page.locator('.policies dd').allTextContents()).toEqual(entries.map((e) => e.answer));
      await check(page, 'page-7-policies.png');

      // Nothing was asked of any server but the service (its API, its page files, its photos).
      const service = [new URL(fx.url).origin, new URL(fx.config.publicBaseUrl).origin];
      expect(requests.filter((u) => u.startsWith('pageerror') || u.startsWith('photo proxy') || !service.includes(new URL(u).origin))).toEqual([]);
      expect(requests.filter((u) => u.includes('/api/') && !u.includes('/api/public/'))).toEqual([]);

      // 8. The shared URL, opened on a phone-sized screen: the same viewport search and the same list.
      const phone = await newPage(390, 844);
      try {
        const restored = phone.page.waitForRequest(isViewportSearch);
        await phone.page.goto(sharedUrl);
        const sent = new URL((await restored).url()).searchParams;
        await rendered(phone.page);
        for (const key of ['sw_latitude', 'sw_longitude', 'ne_latitude', 'ne_longitude', 'zoom', 'max_price', 'bedrooms', 'check_in', 'check_out']) {
          expect([key, sent.get(key)]).toEqual([key, sharedRequest.get(key)]);
        }
        expect(await shownSlugs(phone.page)).toEqual(sharedList);
        expect(await phone.page.inputValue('#f-max-price')).toBe(String(maxPrice));
        // One column: nothing wider than the screen, the map and the first result on it.
        expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
        expect(await phone.page.locator('#map').isVisible()).toBe(true);
        await check(phone.page, 'page-8-shared-phone.png');
      } finally {
        await phone.page.close();
      }
    } finally {
      await page.close();
    }
  });

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
      await tabTo('#f-market');
      // A select takes the first letters of an option: type the market's label.
      const label = (await page.locator(`#f-market option[value="${market}"]`).textContent())!;
      await page.keyboard.type(label);
      expect(await page.inputValue('#f-market')).toBe(market);
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

  it('searches a Flex stay: the tier goes out as check_out=indefinite with committed_nights, and the list is the API\'s', async () => {
    // Flex stays need a long open stretch: the first move-in date and tier that finds some in the market.
    let found: { moveIn: string; tier: string; answer: Answer } | undefined;
    for (const days of [1, 3, 7, 14, 30, 60]) {
      for (const tier of ['180', '270', '365']) {
        const moveIn = addDays(fx.today, days);
        const answer = await api<Answer>(`/api/public/search?${query({ market, check_in: moveIn, check_out: 'indefinite', committed_nights: tier, page: '1', per_page: String(PER_PAGE) })}`);
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
      await page.selectOption('#f-market', market);
      await page.getByRole('radio', { name: 'Flex (open-ended)' }).check();
      expect(await page.locator('#f-check-out').isVisible()).toBe(false);
      await page.fill('#f-check-in', moveIn);
      await page.selectOption('#f-flex', tier);
      const asked = page.waitForRequest((r) => r.url().includes('/api/public/search?'));
      await page.getByRole('button', { name: 'Search' }).click();
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
    } finally {
      await page.close();
    }
  });

  it('draws a national map area as clusters with their counts, and a click on one zooms in and asks the viewport search there', async () => {
    const national = { sw_latitude: '24.5', sw_longitude: '-125', ne_latitude: '49.5', ne_longitude: '-66.9', zoom: '4' };
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
      const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#dde6d5' } }).png().toBuffer();
      await page.route('https://tiles.example.test/**', (route) => route.fulfill({ contentType: 'image/png', body: tile }));
      await page.goto(`${tiled.url}/?market=${market}`);
      await rendered(page);
      await page.locator('.pin').first().waitFor();
      await page.locator('img.leaflet-tile-loaded').first().waitFor();
      const tiles = requests.filter((u) => u.startsWith('https://tiles.example.test/'));
      expect(tiles.length).toBeGreaterThan(0);
      for (const u of tiles) expect(u).toMatch(/^https:\/\/tiles\.example\.test\/\d+\/\d+\/\d+\.png$/);
      expect(requests.filter((u) => u.includes('/app/us-states.json'))).toEqual([]);
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
    expect(await page.text()).toContain('<script src="/app/page.js" defer>');
  });
});
