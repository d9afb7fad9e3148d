/**
 * The search page's flexible dates in headless Chromium: a window of move-in dates with a length in
 * months, or with a Flex tier, goes out to the search as check_in, latest_check_in and nights (or
 * check_out=indefinite with committed_nights); each result shows its best stay from the answer's `stay`;
 * the URL keeps the window, so a shared link restores the form; a result opens its apartment quoted
 * for that stay at the card's price. Each page state (the form on a phone-sized screen too) is checked
 * with axe-core (no serious or critical violation) and photographed into test-artifacts/ (setup:
 * test/e2e/shared/search-page-browser.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { addDays } from '../../services/kernel/engine/dates';
import { stayLabel, type ChosenStay } from '../../services/kernel/engine/stay-label';
import { MAX_MOVE_IN_WINDOW_DAYS } from '../../services/kernel/limits/stay-window';
import type { Fixture } from '../support/fixture';
import { money, query, rendered, shownSlugs, type Answer, type Home } from '../support/search-page';
import { PER_PAGE, searchPageHelpers, startSearchPageWorld } from './shared/search-page-browser';

let fx: Fixture;
let browser: Browser;
let market: string;
let earliest: string;

beforeAll(async () => {
  ({ fx, browser, market, checkIn: earliest } = await startSearchPageWorld());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

const { api, newPage, check, pickMarket } = searchPageHelpers(() => ({ fx, browser }));

interface StayAnswer extends Answer {
  homes: Array<Home & { stay: ChosenStay }>;
}

/** The list request the page sends with the form (without facets: the search answers none for a window). */
const listQuery = (stay: Record<string, string>): string => query({ market, ...stay, page: '1', per_page: String(PER_PAGE) });

/** What each card shows of its home's best stay, in the list's order. */
const shownStays = (page: Page): Promise<string[]> => page.locator('.result .stay-dates strong').allTextContents();

/** Chooses flexible dates in the form and searches; the list request the page sent. */
async function searchWindow(page: Page, fill: () => Promise<void>): Promise<URLSearchParams> {
  await page.goto(fx.url + '/');
  await rendered(page);
  await pickMarket(page, market);
  await page.getByRole('checkbox', { name: 'Flexible dates' }).check();
  await fill();
  const asked = page.waitForRequest((r) => r.url().includes('/api/public/search?'));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const sent = new URL((await asked).url()).searchParams;
  await rendered(page);
  return sent;
}

describe('the search page with flexible dates', () => {
  const latest = (): string => addDays(earliest, 14);
  const window = (): Record<string, string> => ({ check_in: earliest, latest_check_in: latest(), nights: '60' });

  it("searches a window of move-in dates for a length in months, shows each home's best stay, and a shared link restores the form", async () => {
    const answer = await api<StayAnswer>(`/api/public/search?${listQuery(window())}`);
    expect(answer.total_count).toBeGreaterThan(0);
    const { page, requests } = await newPage(1280, 860);
    try {
      const sent = await searchWindow(page, async () => {
        expect(await page.locator('label[for="f-check-in"]').textContent()).toBe('Earliest move-in');
        expect(await page.locator('#f-check-out').isVisible()).toBe(false);
        await page.fill('#f-check-in', earliest);
        await page.fill('#f-latest-check-in', latest());
        await page.fill('#f-length', '2');
        await page.selectOption('#f-length-unit', 'months');
      });
      // Two months are 60 nights; a window has no check-out.
      expect(Object.fromEntries(['check_in', 'latest_check_in', 'nights', 'check_out', 'facets'].map((k) => [k, sent.get(k)]))).toEqual({
        ...window(),
        check_out: null,
        facets: null,
      });
      const url = new URL(page.url()).searchParams;
      expect([url.get('check_in'), url.get('latest_check_in'), url.get('months')]).toEqual([earliest, latest(), '2']);
      expect(await shownSlugs(page)).toEqual(answer.homes.map((h) => h.slug));
      expect(await shownStays(page)).toEqual(answer.homes.map((h) => stayLabel(h.stay)));
      expect(await page.locator('.result .amount').allTextContents()).toEqual(answer.homes.map((h) => money(h.display_price_with_discount)));
      await check(page, 'page-flexible-dates.png');

      // The same URL opened anew: the form shows the window and the length, and the list is the same.
      await page.reload();
      await rendered(page);
      expect(await page.getByRole('checkbox', { name: 'Flexible dates' }).isChecked()).toBe(true);
      expect([await page.inputValue('#f-check-in'), await page.inputValue('#f-latest-check-in')]).toEqual([earliest, latest()]);
      expect([await page.inputValue('#f-length'), await page.inputValue('#f-length-unit')]).toEqual(['2', 'months']);
      expect(await shownStays(page)).toEqual(answer.homes.map((h) => stayLabel(h.stay)));
      // On a phone-sized screen the window's fields fit in one column.
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await check(page, 'page-flexible-dates-phone.png');
      expect(requests.filter((r) => r.startsWith('pageerror'))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("opens a result's best stay: the apartment is quoted for it at the card's price, and Back to results searches the window again", async () => {
    const answer = await api<StayAnswer>(`/api/public/search?${listQuery(window())}`);
    const first = answer.homes[0];
    const { page } = await newPage(1100, 860);
    try {
      await page.goto(`${fx.url}/?${query({ market, check_in: earliest, latest_check_in: latest(), months: '2' })}`);
      await rendered(page);
      const quoted = page.waitForRequest((r) => r.url().includes(`/homes/${first.slug}/quote?`));
      await page.locator(`#result-${first.slug} h3 a`).click();
      const sent = new URL((await quoted).url()).searchParams;
      expect([sent.get('check_in'), sent.get('check_out')]).toEqual([first.stay.start_date, first.stay.end_date]);
      await rendered(page);
      expect(new URL(page.url()).searchParams.get('move_in')).toBe(first.stay.start_date);
      expect(await page.locator('.quote .amount').textContent()).toBe(money(first.display_price_with_discount));
      expect([await page.inputValue('#q-check-in'), await page.inputValue('#q-check-out')]).toEqual([first.stay.start_date, first.stay.end_date]);
      await check(page, 'page-flexible-dates-home.png');

      await page.getByRole('link', { name: '← Back to results' }).click();
      await rendered(page);
      const back = new URL(page.url()).searchParams;
      expect([back.get('latest_check_in'), back.get('months'), back.get('move_in')]).toEqual([latest(), '2', null]);
      expect(await shownSlugs(page)).toEqual(answer.homes.map((h) => h.slug));
    } finally {
      await page.close();
    }
  });

  it('searches a window for a Flex tier: check_out=indefinite with committed_nights, and each card names its move-in', async () => {
    // Flex stays need a long open stretch: the first window and tier that finds some in the market.
    let found: { from: string; tier: string; answer: StayAnswer } | undefined;
    for (const days of [1, 30, 60]) {
      for (const tier of ['180', '270', '365']) {
        const from = addDays(fx.today, days);
        const stay = { check_in: from, latest_check_in: addDays(from, 30), check_out: 'indefinite', committed_nights: tier };
        const answer = await api<StayAnswer>(`/api/public/search?${listQuery(stay)}`);
        if (!found && answer.total_count > 0) found = { from, tier, answer };
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    const { from, tier, answer } = found!;
    const { page } = await newPage(1100, 860);
    try {
      const sent = await searchWindow(page, async () => {
        await page.getByRole('radio', { name: 'Flex (open-ended)' }).check();
        expect(await page.locator('#f-length').isVisible()).toBe(false);
        await page.fill('#f-check-in', from);
        await page.fill('#f-latest-check-in', addDays(from, 30));
        await page.selectOption('#f-flex', tier);
      });
      expect(['check_in', 'latest_check_in', 'check_out', 'committed_nights', 'nights'].map((k) => sent.get(k))).toEqual([
        from,
        addDays(from, 30),
        'indefinite',
        tier,
        null,
      ]);
      expect(new URL(page.url()).searchParams.get('flex')).toBe(tier);
      expect(await shownSlugs(page)).toEqual(answer.homes.map((h) => h.slug));
      for (const h of answer.homes) expect(h.stay.end_date).toBeNull();
      expect(await shownStays(page)).toEqual(answer.homes.map((h) => stayLabel(h.stay)));
      expect((await shownStays(page))[0]).toMatch(/^Flex from /);
      await check(page, 'page-flexible-dates-flex.png');
    } finally {
      await page.close();
    }
  });

  it(`keeps the latest move-in within ${MAX_MOVE_IN_WINDOW_DAYS} days of the earliest: a wider window is not searched`, async () => {
    const { page, requests } = await newPage(1100, 860);
    try {
      await page.goto(`${fx.url}/?market=${market}`);
      await rendered(page);
      await page.getByRole('checkbox', { name: 'Flexible dates' }).check();
      await page.fill('#f-check-in', earliest);
      await page.fill('#f-latest-check-in', addDays(earliest, MAX_MOVE_IN_WINDOW_DAYS + 1));
      await page.fill('#f-length', '90');
      await page.selectOption('#f-length-unit', 'nights');
      const before = requests.length;
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForTimeout(500);
      expect(requests.slice(before).filter((u) => u.includes('/api/public/search?'))).toEqual([]);
      expect(await page.evaluate("document.getElementById('f-latest-check-in').validity.rangeOverflow")).toBe(true);
      await page.fill('#f-latest-check-in', addDays(earliest, MAX_MOVE_IN_WINDOW_DAYS));
      const asked = page.waitForRequest((r) => r.url().includes('/api/public/search?'));
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      expect(new URL((await asked).url()).searchParams.get('nights')).toBe('90');
      await rendered(page);
    } finally {
      await page.close();
    }
  });
});
