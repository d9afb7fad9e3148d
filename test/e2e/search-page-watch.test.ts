/**
 * "Watch this search" on the search page in headless Chromium (services/web/app/watch-form.ts): under
 * the results, the consent text and an email; nothing is saved without both; once saved, the page
 * sent the search it shows as watch_search_tool's arguments (POST /api/public/watches) and shows the
 * links to the watch's JSON feed and Atom feed, which answer. Each state is checked with axe-core (no
 * serious or critical violation) and photographed into test-artifacts/ (setup:
 * test/e2e/shared/search-page-browser.ts).
 */
import type { Browser } from 'playwright-core';
import type { Fixture } from '../support/fixture';
import { rendered } from '../support/search-page';
import { searchPageHelpers, startSearchPageWorld } from './shared/search-page-browser';

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

const { newPage, check, pickMarket } = searchPageHelpers(() => ({ fx, browser }));

describe('watch this search on the search page', () => {
  it('asks consent and an email, saves the search shown, then links its JSON and Atom feeds', async () => {
    const { page, requests } = await newPage(1280, 900);
    try {
      await page.goto(fx.url + '/');
      await rendered(page);
      await pickMarket(page, market);
      await page.getByRole('checkbox', { name: 'Parking' }).check();
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await rendered(page);

      const section = page.getByRole('region', { name: 'Watch this search' });
      await section.scrollIntoViewIfNeeded();
      expect(await section.locator('#watch-consent-text').textContent()).toMatch(/my email is saved with this search/);
      expect(await page.getByRole('checkbox', { name: 'I agree' }).getAttribute('aria-describedby')).toBe('watch-consent-text');
      await check(page, 'watch-form.png');

      // Neither without an email nor without consent: the page says why and sends nothing.
      await page.getByRole('button', { name: 'Watch this search' }).click();
      expect(await page.locator('#watch-status').textContent()).toMatch(/Enter the email/);
      await page.getByLabel('Email').fill('page-watcher@example.com');
      await page.getByRole('button', { name: 'Watch this search' }).click();
      expect(await page.locator('#watch-status').textContent()).toMatch(/I agree/);
      expect(requests.filter((u) => u.includes('/api/public/watches'))).toEqual([]);

      await page.getByRole('checkbox', { name: 'I agree' }).check();
      const sent = page.waitForRequest((r) => r.url().endsWith('/api/public/watches') && r.method() === 'POST');
      await page.getByRole('button', { name: 'Watch this search' }).click();
      const body = (await sent).postDataJSON() as { search: Record<string, unknown>; email: string; guest_consent: boolean };
      expect(body).toEqual({ search: expect.objectContaining({ market, parking: true }), email: 'page-watcher@example.com', guest_consent: true });

      const feed = page.getByRole('link', { name: 'Changes (JSON feed)' });
      await feed.waitFor();
      const atom = page.getByRole('link', { name: /Changes \(Atom feed/ });
      const feedPath = new URL((await feed.getAttribute('href'))!).pathname;
      const atomPath = new URL((await atom.getAttribute('href'))!).pathname;
      expect(feedPath).toMatch(/^\/api\/public\/watches\/[A-Za-z0-9_-]{22}\/changes$/);
      expect(atomPath).toBe(feedPath.replace(/changes$/, 'atom'));
      await check(page, 'watch-saved.png');

      // The links open the watch the page saved.
      const changes = await fx.get(feedPath);
      expect(changes.status).toBe(200);
      expect(changes.body.changes).toEqual([]);
      const stored = await fx.mongo.collections.watches.findOne({ _id: changes.body.watch_id });
      expect(stored?.search).toEqual(body.search);
      const res = await fetch(fx.url + atomPath);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/atom\+xml/);
      expect(requests.filter((u) => u.startsWith('pageerror'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
