/**
 * The shared setup of the search page tests in headless Chromium (test/e2e/search-page-*.test.ts): 320
 * generated homes (seed 5), the market with the most homes for a 30-night stay 30 days out, the browser,
 * and the helpers that read the public GET API, open a recorded page and check a page state with axe-core
 * (photographed into test-artifacts/).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { addDays } from '../../../services/kernel/engine/dates';
import { checkState } from '../../support/axe';
import { CHROMIUM_HINT, findChromium } from '../../support/chromium';
import { startFixture, type Fixture } from '../../support/fixture';
import { pickPlace, query, recordedPage, rendered, type Answer, type RecordedPage } from '../../support/search-page';
import { openBrowser } from '../../support/browser';

const CHROMIUM = findChromium();
const ARTIFACTS = path.resolve(__dirname, '../../../test-artifacts');
export const PER_PAGE = 12;

export interface SearchPageWorld {
  fx: Fixture;
  browser: Browser;
  market: string;
  checkIn: string;
  checkOut: string;
}

async function readApi<T>(fx: Fixture, pathAndQuery: string): Promise<T> {
  const res = await fx.get(pathAndQuery);
  expect(res.status).toBe(200);
  return res.body as T;
}

/**
 * The public GET API's answer (200 expected), the browser's recorded pages, the axe check, and the
 * choice of a market in the page's place box (its name typed, its option clicked; the page then shows
 * the market's search), on the file's world.
 */
export function searchPageHelpers(world: () => { fx: Fixture; browser: Browser }) {
  const api = <T>(pathAndQuery: string): Promise<T> => readApi<T>(world().fx, pathAndQuery);
  const newPage = (width: number, height: number): Promise<RecordedPage> => recordedPage(world().browser, world().fx, width, height);
  const check = (page: Page, shot: string): Promise<void> => checkState(page, path.join(ARTIFACTS, shot));
  const marketName = async (slug: string): Promise<string> =>
    (await api<{ markets: Array<{ slug: string; name: string }> }>('/api/public/markets')).markets.find((m) => m.slug === slug)!.name;
  const pickMarket = async (page: Page, slug: string): Promise<void> => {
    await pickPlace(page, await marketName(slug), { type: 'market', slug });
    await rendered(page);
  };
  return { api, newPage, check, marketName, pickMarket };
}

export async function startSearchPageWorld(): Promise<SearchPageWorld> {
  if (!CHROMIUM) throw new Error(CHROMIUM_HINT);
  mkdirSync(ARTIFACTS, { recursive: true });
  const fx = await startFixture({ homes: 320, seed: 5 });
  try {
    const api = <T>(pathAndQuery: string): Promise<T> => readApi<T>(fx, pathAndQuery);
    const checkIn = addDays(fx.today, 30);
    const checkOut = addDays(checkIn, 30);
    // The market with the most homes for the stay: enough to narrow and to compare.
    const { markets } = await api<{ markets: Array<{ slug: string }> }>('/api/public/markets');
    let best = -1;
    let market = '';
    for (const m of markets) {
      const a = await api<Answer>(`/api/public/search?${query({ market: m.slug, check_in: checkIn, check_out: checkOut, per_page: '1' })}`);
      if (a.total_count > best) [best, market] = [a.total_count, m.slug];
    }
    expect(best).toBeGreaterThan(PER_PAGE);
    const browser = await openBrowser();
    return { fx, browser, market, checkIn, checkOut };
  } catch (err) {
    await fx.close();
    throw err;
  }
}
