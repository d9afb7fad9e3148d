/**
 * The search page at / in headless Chromium, one person's journey: a market search for a 30-night stay,
 * narrowed by price and bedrooms, the map zoomed and panned (the viewport search is asked and the list
 * follows), an apartment opened, other dates quoted, three homes compared, the policies read, and the
 * shared URL opened on a phone-sized screen to find the same search. Each page state is checked with
 * axe-core (no serious or critical violation) and photographed into test-artifacts/. What the page shows
 * is compared with what the public GET API answers for the same request (setup:
 * test/e2e/shared/search-page-browser.ts).
 */
import type { Browser, Request } from 'playwright-core';
import { addDays } from '../../services/kernel/engine/dates';
import { alignViewport } from '../../services/kernel/map-tiles';
import type { Fixture } from '../support/fixture';
import { apiPath, isViewportSearch, money, query, rendered, shownSlugs, waitUntil, type Answer } from '../support/search-page';
import { PER_PAGE, searchPageHelpers, startSearchPageWorld } from './shared/search-page-browser';

let fx: Fixture;
let browser: Browser;
let market: string;
let checkIn: string;
let checkOut: string;

beforeAll(async () => {
  ({ fx, browser, market, checkIn, checkOut } = await startSearchPageWorld());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

const { api, newPage, check, pickMarket } = searchPageHelpers(() => ({ fx, browser }));

describe('the search page at /', () => {
  it('takes a person from a market search through the map, an apartment, a quote and a comparison, and a shared URL restores the search', async () => {
    const { page, requests } = await newPage(1280, 860);
    try {
      // 1. A market and a 30-night stay.
      await page.goto(fx.url + '/');
      await rendered(page);
      await pickMarket(page, market); // completed by GET /suggest, and searched at once
      expect(new URL(page.url()).searchParams.get('market')).toBe(market);
      await page.fill('#f-check-in', checkIn);
      await page.fill('#f-check-out', checkOut);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('market')).toBe(market);
      const first = await api<Answer>(`/api/public/search?${query({ market, check_in: checkIn, check_out: checkOut, page: '1', per_page: String(PER_PAGE) })}`);
      expect(await shownSlugs(page)).toEqual(first.homes.map((h) => h.slug));
      expect(await page.locator('#results-heading').textContent()).toBe(
        `${first.total_count} homes in ${await page.locator('.place-chip .place-name').textContent()}`,
      );
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
      await page.getByRole('button', { name: 'Search', exact: true }).click();
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
        // The page's URL keeps the area shown; the search asks it widened to the viewport grid of its zoom.
        const [as, aw, an, ae, zoom] = (new URL(page.url()).searchParams.get('area') ?? '').split(',').map(Number);
        expect(String(zoom)).toBe(sent.get('zoom'));
        expect(s <= as && w <= aw && n >= an && e >= ae).toBe(true);
        expect(alignViewport({ south: s, west: w, north: n, east: e }, zoom)).toEqual({ south: s, west: w, north: n, east: e });
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
      const otherQuote = await api<{ available: boolean; display_price_with_discount?: number; unavailable_reason?: string }>(
        `/api/public/homes/${slug}/quote?${query(otherStay)}`,
      );
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
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await rendered(page);
      expect(await shownSlugs(page)).toEqual(first.homes.map((h) => h.slug));
      const chosen = first.homes.slice(0, 3);
      for (const [i, h] of chosen.entries()) {
        // Ticked with the keyboard: the list is redrawn and the focus stays on the box.
        const box = page.locator(`#result-${h.slug} .compare-box`);
        expect(await box.getAttribute('aria-label')).toBe(`Compare ${h.name}`);
        await box.focus();
        await page.keyboard.press('Space');
        await waitUntil(
          page,
          `new URLSearchParams(location.search).get('compare') === ${JSON.stringify(
            chosen
              .slice(0, i + 1)
              .map((c) => c.slug)
              .join(','),
          )}`,
        );
        expect(await page.evaluate(`document.activeElement === document.querySelector('#result-${h.slug} .compare-box')`)).toBe(true);
      }
      expect(new URL(page.url()).searchParams.get('compare')).toBe(chosen.map((h) => h.slug).join(','));
      await page.getByRole('link', { name: 'Compare 3 homes' }).click();
      await rendered(page);
      expect(await page.locator('.compare-table thead th').allTextContents()).toEqual(chosen.map((h) => h.name));
      const firstRead = await api<{ display_price_with_discount: number }>(`/api/public/homes/${chosen[0].slug}?${query(stay)}`);
      expect(await page.locator('.compare-table tbody tr').filter({ hasText: 'Price' }).locator('td').first().textContent()).toContain(
        money(firstRead.display_price_with_discount),
      );
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
});
