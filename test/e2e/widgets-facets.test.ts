/**
 * The map widget shows the counts a result carries: search_apartments_on_map called with facets: true
 * (real stores, an MCP client) and handed to the widget by the test host (test/support/widget-host.ts);
 * a result without them shows none; the widget's own searches (search_map_viewport, proxied by the host)
 * ask for them, and a move shows the new counts. Checked with axe-core inside the frame.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { MAP_WIDGET } from '../../services/widgets/catalog';
import { seriousViolations } from '../support/axe';
import { CHROMIUM_HINT, findChromium } from '../support/chromium';
import { busiestCity, startFixture, type Fixture } from '../support/fixture';
import { FULL_HOST, PLAIN_HOST, showInHost, type HostedResult, type HostOffer } from '../support/widget-host';
import { openBrowser } from '../support/browser';

const CHROMIUM = findChromium();
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

let fx: Fixture;
let browser: Browser;
let city: string;

interface Facets {
  filters: Array<{ filter: string; count: number }>;
  bedrooms: Array<{ bedrooms: number; count: number }>;
  guest_rating: Array<{ guest_rating: string; count: number }>;
  price: { unit: string; buckets: Array<{ min: number; max: number; count: number }> };
}
type Call = { name: string; arguments: Record<string, unknown> };

beforeAll(async () => {
  if (!CHROMIUM) throw new Error(CHROMIUM_HINT);
  mkdirSync(ARTIFACTS, { recursive: true });
  fx = await startFixture({ homes: 120, seed: 5 });
  city = await busiestCity(fx);
  browser = await openBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

/** The map widget hosted with the real result of `input`; the host proxies the widget's tool calls to the service and records them. */
async function hosted(input: Record<string, unknown>, host: HostOffer): Promise<{ page: Page; result: HostedResult; calls: Call[]; answers: HostedResult[] }> {
  const client = await fx.mcpModern();
  const result = (await client.callTool({ name: 'search_apartments_on_map', arguments: input })) as HostedResult;
  expect(result.isError).toBeFalsy();
  const html = ((await client.readResource({ uri: MAP_WIDGET.uri })).contents[0] as { text: string }).text;
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  const calls: Call[] = [];
  const answers: HostedResult[] = [];
  await page.exposeFunction('__callTool', async (params: Call) => {
    calls.push(params);
    const answer = (await client.callTool(params)) as HostedResult;
    answers.push(answer);
    return answer;
  });
  await showInHost(page, html, input, result, host);
  return { page, result, calls, answers };
}

/** The counts the widget should list, in its order: each filter, bedroom count, rating and price bucket above zero. */
const shownCounts = (f: Facets): string[] =>
  [...f.filters, ...f.bedrooms, ...f.guest_rating, ...f.price.buckets].filter((x) => x.count > 0).map((x) => x.count.toLocaleString('en-US'));

const facetsOf = (result: HostedResult): Facets => (result.structuredContent as { facets: Facets }).facets;

async function eventually<T>(read: () => T | Promise<T>, check: (value: T) => void, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      check(await read());
      return;
    } catch (err) {
      if (Date.now() > end) throw err;
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('the map widget and the facets of its result', () => {
  it('lists the counts a result searched with facets: true carries, and none for a result without them', async () => {
    const { page, result } = await hosted({ market: city, facets: true }, PLAIN_HOST);
    try {
      const facets = facetsOf(result);
      expect(facets.filters.length).toBe(13);
      const view = page.frameLocator('#view');
      await view.locator('[data-testid=facets]').waitFor();
      expect(await view.locator('[data-testid=facets] dt').allTextContents()).toEqual(['With', 'Bedrooms', 'Rating', 'Price']);
      expect(await view.locator('[data-testid=facets] .facet strong').allTextContents()).toEqual(shownCounts(facets));
      const parking = facets.filters.find((f) => f.filter === 'parking')!.count;
      if (parking > 0) expect(await view.locator('[data-testid=facets]').textContent()).toContain(`Parking ${parking}`);
      expect(await seriousViolations(page.frames()[1] as unknown as Page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'search-map-facets.png'), fullPage: true });
    } finally {
      await page.close();
    }
    const plain = await hosted({ market: city }, PLAIN_HOST);
    try {
      expect((plain.result.structuredContent as { facets?: unknown }).facets).toBeUndefined();
      const view = plain.page.frameLocator('#view');
      await view.locator('.pin').first().waitFor();
      expect(await view.locator('[data-testid=facets]').count()).toBe(0);
    } finally {
      await plain.page.close();
    }
  });

  it("asks for the counts in its own search when the map moves, and lists the new area's", async () => {
    const { page, calls, answers } = await hosted({ market: city, min_bedrooms: 1 }, FULL_HOST);
    try {
      const view = page.frameLocator('#view');
      await view.locator('.pin').first().waitFor();
      await view.locator('[data-testid="zoom-out"]').click();
      await eventually(
        () => answers.length,
        (n) => expect(n).toBe(1),
      );
      expect(calls[0]).toMatchObject({ name: 'search_map_viewport', arguments: { min_bedrooms: 1, facets: true } });
      const facets = facetsOf(answers[0]);
      expect(facets.filters.length).toBe(13);
      await eventually(
        () => view.locator('[data-testid=facets] .facet strong').allTextContents(),
        (shown) => expect(shown).toEqual(shownCounts(facets)),
      );
    } finally {
      await page.close();
    }
  });
});
