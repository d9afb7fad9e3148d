/**
 * Driving the search page (services/web) in a browser test: pages whose requests are recorded, the
 * wait for a rendered state, the list as the page shows it, and the GET API's answer shapes it is
 * compared with.
 */
import type { PlaceSearchArgs } from './place-search';
import type { Browser, Page, Request } from 'playwright-core';
import type { Fixture } from './fixture';

export interface Home {
  slug: string;
  name: string;
  latitude: number;
  longitude: number;
  display_price_with_discount: number;
  display_price_label: string;
}

export interface Answer {
  total_count: number;
  homes: Home[];
  clusters?: unknown[];
}

export interface RecordedPage {
  page: Page;
  /** Every URL the page asked for (data: URLs aside), `pageerror: …` for each uncaught error, `photo proxy: …` for a photo the test could not hand over. */
  requests: string[];
}

/** The page's own format of a price. */
export const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

export const query = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/** A page whose requests are recorded; photos named at PUBLIC_BASE_URL are fetched from the test's service. */
export async function recordedPage(browser: Browser, fx: Fixture, width: number, height: number): Promise<RecordedPage> {
  const page = await browser.newPage({ viewport: { width, height } });
  const requests: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('data:')) requests.push(r.url());
  });
  page.on('pageerror', (err) => requests.push(`pageerror: ${err.message}`));
  const photos = new URL(fx.config.publicBaseUrl).origin;
  if (photos !== new URL(fx.url).origin) {
    await page.route(`${photos}/**`, async (route) => {
      const url = new URL(route.request().url());
      // Fetched by the test and handed over, as a proxying host would; once more when the connection
      // itself failed (a kept-alive socket the service just closed).
      const fetchPhoto = () => route.fetch({ url: fx.url + url.pathname + url.search });
      try {
        await route.fulfill({ response: await fetchPhoto().catch(fetchPhoto) });
      } catch (err) {
        // The page went on (a new URL loaded, or the page closed) before the photo came: Playwright has
        // disposed of the answer and nobody waits for it. Anything else is the page's to see.
        if (page.isClosed() || /disposed|closed/i.test(String(err))) return;
        requests.push(`photo proxy: ${(err as Error).message}`);
        await route.abort().catch(() => undefined);
      }
    });
  }
  return { page, requests };
}

/** Waits until the page has rendered the state its URL names (services/web/app/main.ts marks it on the body). */
/**
 * Waits until `expression` holds in the page. Asked through the browser's debugging protocol, as
 * page.evaluate does: waitForFunction would build its predicate with eval, which the page's
 * Content-Security-Policy refuses (no 'unsafe-eval').
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for: ${expression}`);
    await page.waitForTimeout(25);
  }
}

export async function rendered(page: Page): Promise<void> {
  await waitUntil(page, "document.body.dataset.ready === (location.search || '?')");
}

export const shownSlugs = (page: Page): Promise<string[]> => page.locator('.result').evaluateAll((els) => els.map((e) => e.getAttribute('data-slug') ?? ''));

export const apiPath = (r: Request): string => {
  const u = new URL(r.url());
  return u.pathname + u.search;
};

/** A request of the viewport search with a map area (not the market's pins). */
export const isViewportSearch = (r: Request): boolean => r.url().includes('/api/public/map-search?') && r.url().includes('sw_latitude=');

/** A place of GET /api/public/suggest, as the place box lists it (an option's data-type and data-slug). */
export interface SuggestedPlace {
  type: string;
  slug: string;
  label: string;
  market: string;
  search: PlaceSearchArgs;
}

/** The place box's option of a place, once it is listed. */
export const placeOption = (page: Page, place: Pick<SuggestedPlace, 'type' | 'slug'>) =>
  page.locator(`#f-place-list [role="option"][data-type="${place.type}"][data-slug="${place.slug}"]`);

/**
 * Picks a place in the page's place box (services/web/app/place-box.ts) as a person does with the
 * mouse: types `text`, and clicks the place's option once it is listed. The pick searches the place.
 */
export async function pickPlace(page: Page, text: string, place: Pick<SuggestedPlace, 'type' | 'slug'>): Promise<void> {
  await page.fill('#f-place', text);
  await placeOption(page, place).click();
}
