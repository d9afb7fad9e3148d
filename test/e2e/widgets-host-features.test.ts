/**
 * What the widgets do through their host with the MCP Apps SDK, in headless Chromium with the test
 * host (test/support/widget-host.ts) and real results: the map pans and zooms through the app-only
 * search_map_viewport (a tools/call the host proxies to the real service, no model turn) and goes full
 * screen; the reservation link asks the host to open the page; the host's theme, style variables and
 * fonts are applied. Every message a widget sends is valid against the library's published schema.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { alignViewport } from '../../services/kernel/map-tiles';
import { CARD_GRID_WIDGET, MAP_WIDGET } from '../../services/widgets/catalog';
import { busiestCity, startFixture, type Fixture } from '../support/fixture';
import { FULL_HOST, hostMessages, openedLinks, PLAIN_HOST, sentToHost, showInHost, type HostedResult, type HostOffer } from '../support/widget-host';
import { CHROMIUM_HINT, findChromium } from '../support/chromium';
import { mcpAppsErrors } from '../support/mcp-apps-schema';
import { openBrowser } from '../support/browser';

const CHROMIUM = findChromium();
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

let fx: Fixture;
let browser: Browser;
let city: string;

interface Home {
  slug: string;
  name: string;
  home_url: string;
}
interface MapAnswer {
  homes: Home[];
  total_count: number;
  viewport?: { sw_latitude: number; sw_longitude: number; ne_latitude: number; ne_longitude: number; zoom: number };
  clusters?: unknown[];
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

/** The widget's method → the library's schema of that message (core MCP methods are the SDK's to check). */
const SCHEMA_OF: Record<string, string> = {
  'ui/initialize': 'McpUiInitializeRequest',
  'ui/notifications/initialized': 'McpUiInitializedNotification',
  'ui/notifications/size-changed': 'McpUiSizeChangedNotification',
  'ui/message': 'McpUiMessageRequest',
  'ui/open-link': 'McpUiOpenLinkRequest',
  'ui/request-display-mode': 'McpUiRequestDisplayModeRequest',
};

/** Each request and notification the widget sent is valid against the library's schema, and none is of a method it does not know. */
async function expectValidMessages(page: Page): Promise<void> {
  const sent = (await sentToHost(page)).filter((m) => m.method !== undefined);
  expect(sent.length).toBeGreaterThan(2);
  for (const m of sent) {
    if (m.method === 'tools/call') continue;
    expect(Object.keys(SCHEMA_OF)).toContain(m.method);
    expect(mcpAppsErrors(SCHEMA_OF[m.method!], { method: m.method, ...(m.params ? { params: m.params } : {}) })).toEqual([]);
  }
}

/** A page hosting `uri` with `result`; the host proxies the widget's tool calls to the service and records them. */
async function hosted(
  uri: string,
  tool: string,
  input: Record<string, unknown>,
  host: HostOffer,
): Promise<{ page: Page; result: HostedResult; calls: Call[]; answers: HostedResult[] }> {
  const client = await fx.mcpModern();
  const result = (await client.callTool({ name: tool, arguments: input })) as HostedResult;
  expect(result.isError).toBeFalsy();
  const html = ((await client.readResource({ uri })).contents[0] as { text: string }).text;
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
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

const frameOf = (page: Page) => page.frameLocator('#view');

/** Retries `check` on what `read` gives until it passes (10 s at most): widget and host talk asynchronously. */
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

/** A computed style of the element, read in the page (the tests' TypeScript has no DOM types). */
const computed = (el: unknown, name: string): string =>
  (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)[name];

describe('the map moves through search_map_viewport', () => {
  it('zooms out and pans by a drag: each move is one app tool call with the new viewport and the search filters, drawn from its answer, with no message to the model', async () => {
    const input = { market: city, min_bedrooms: 0 };
    const { page, calls, answers } = await hosted(MAP_WIDGET.uri, 'search_apartments_on_map', input, FULL_HOST);
    try {
      const view = frameOf(page);
      await view.locator('.pin').first().waitFor();
      await view.locator('[data-testid="zoom-out"]').click();
      await eventually(
        () => calls.length,
        (v) => expect(v).toBe(1),
      );
      const [zoom] = calls;
      expect(zoom.name).toBe('search_map_viewport');
      expect(zoom.arguments).toMatchObject({ min_bedrooms: 0, zoom: expect.any(Number) });
      expect(zoom.arguments.market).toBeUndefined(); // the viewport stands for the place now
      const first = zoom.arguments as { sw_longitude: number; ne_longitude: number; sw_latitude: number; ne_latitude: number };
      await eventually(
        () => answers.length,
        (v) => expect(v).toBe(1),
      );
      const answer = answers[0].structuredContent as MapAnswer;
      expect(answer.viewport).toBeDefined();
      await eventually(
        () => view.locator('.pin, .cluster').count(),
        (v) => expect(v).toBe(answer.clusters?.length || answer.homes.length),
      );

      // A drag to the right shows what lies west: the next viewport is further west, as wide.
      const box = (await view.locator('svg.map').boundingBox())!;
      await page.mouse.move(box.x + 40, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 40 + box.width / 4, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await eventually(
        () => calls.length,
        (v) => expect(v).toBe(2),
      );
      const pan = calls[1].arguments as typeof first;
      expect(pan.sw_longitude).toBeLessThan(first.sw_longitude);
      expect(pan.ne_longitude - pan.sw_longitude).toBeCloseTo(first.ne_longitude - first.sw_longitude, 0);
      expect(pan.sw_latitude).toBeCloseTo(first.sw_latitude, 0);
      expect(await hostMessages(page)).toEqual([]);
      await eventually(
        () => answers.length,
        (v) => expect(v).toBe(2),
      );
      await view.locator('[data-testid="selection"]').filter({ hasNotText: 'Searching' }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, 'search-map-moved.png') });

      // Each viewport asked lies on the grid of its zoom, and the map keeps to the view moved to (not the wider
      // viewport searched): dragged back, it asks the very question it asked before the drag.
      for (const call of calls) {
        const a = call.arguments as typeof first & { zoom: number };
        const rect = { south: a.sw_latitude, west: a.sw_longitude, north: a.ne_latitude, east: a.ne_longitude };
        expect(alignViewport(rect, a.zoom)).toEqual(rect);
      }
      await page.mouse.move(box.x + 40 + box.width / 4, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 40, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await eventually(
        () => calls.length,
        (v) => expect(v).toBe(3),
      );
      expect(calls[2].arguments).toEqual(zoom.arguments);
      await expectValidMessages(page);
    } finally {
      await page.close();
    }
  });

  it('offers no move where the host proxies no tool call, and no full-screen button where it offers no fullscreen', async () => {
    const { page } = await hosted(MAP_WIDGET.uri, 'search_apartments_on_map', { market: city }, PLAIN_HOST);
    try {
      const view = frameOf(page);
      await view.locator('.pin').first().waitFor();
      expect(await view.locator('.map-controls').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('asks the host for fullscreen and follows the mode the host sets', async () => {
    const { page } = await hosted(MAP_WIDGET.uri, 'search_apartments_on_map', { market: city }, FULL_HOST);
    try {
      const view = frameOf(page);
      await view.locator('[data-testid="fullscreen"]').click();
      await eventually(
        () => page.evaluate('window.__modes'),
        (v) => expect(v).toEqual(['fullscreen']),
      );
      await eventually(
        () => view.locator('html').getAttribute('data-display-mode'),
        (v) => expect(v).toBe('fullscreen'),
      );
      expect(await view.locator('[data-testid="fullscreen"]').getAttribute('aria-label')).toBe('Exit full screen');
      await page.screenshot({ path: path.join(ARTIFACTS, 'search-map-fullscreen.png') });
      await expectValidMessages(page);
    } finally {
      await page.close();
    }
  });
});

describe('the reservation link', () => {
  it('asks the host to open the home page from a card (the sandbox blocks navigation), and sends no message', async () => {
    const { page, result } = await hosted(CARD_GRID_WIDGET.uri, 'search_apartments_tool', { market: city, per_page: 6, include_hero_images: false }, FULL_HOST);
    try {
      const homes = (result.structuredContent as MapAnswer).homes;
      const view = frameOf(page);
      await view.locator('[data-testid="reserve"]').nth(1).click();
      await eventually(
        () => openedLinks(page),
        (v) => expect(v).toEqual([homes[1].home_url]),
      );
      expect(await hostMessages(page)).toEqual([]);
      expect(await view.locator('.card.selected').count()).toBe(0);
      await expectValidMessages(page);
    } finally {
      await page.close();
    }
  });

  it('is in the map status once a pin is chosen', async () => {
    const { page, result } = await hosted(MAP_WIDGET.uri, 'search_apartments_on_map', { market: city }, FULL_HOST);
    try {
      const view = frameOf(page);
      const pin = view.locator('.pin').first();
      const slug = await pin.getAttribute('data-slug'); // before the click: a chosen pin is drawn last
      await pin.click();
      const home = (result.structuredContent as MapAnswer).homes.find((h) => h.slug === slug)!;
      await view.locator('[data-testid="selection"] [data-testid="reserve"]').click();
      await eventually(
        () => openedLinks(page),
        (v) => expect(v).toEqual([home.home_url]),
      );
    } finally {
      await page.close();
    }
  });
});

describe("the host's theme, style variables and fonts", () => {
  it('applies them from the handshake and follows a later theme change', async () => {
    const fonts = "@font-face { font-family: 'Host Sans'; src: local('DejaVu Sans'); }";
    const host: HostOffer = {
      capabilities: FULL_HOST.capabilities,
      context: {
        theme: 'dark',
        displayMode: 'inline',
        styles: { variables: { '--color-background-primary': 'rgb(1, 2, 3)', '--font-sans': "'Host Sans', serif" }, css: { fonts } },
      },
    };
    const { page } = await hosted(CARD_GRID_WIDGET.uri, 'search_apartments_tool', { market: city, per_page: 3, include_hero_images: false }, host);
    try {
      const view = frameOf(page);
      await view.locator('.card').first().waitFor();
      expect(await view.locator('html').getAttribute('data-theme')).toBe('dark');
      await page.screenshot({ path: path.join(ARTIFACTS, 'search-cards-host-theme.png') });
      const body = view.locator('body');
      expect(await body.evaluate(computed, 'backgroundColor')).toBe('rgb(1, 2, 3)');
      expect(await body.evaluate(computed, 'fontFamily')).toContain('Host Sans');
      expect(await view.locator('style').evaluateAll((styles) => styles.some((s) => s.textContent?.includes("'Host Sans'")))).toBe(true);
      await page.evaluate(
        `document.getElementById('view').contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: { theme: 'light' } }, '*')`,
      );
      await eventually(
        () => view.locator('html').getAttribute('data-theme'),
        (v) => expect(v).toBe('light'),
      );
      // Auto-resize: the host sized the frame to the content it was told of.
      const height = await view.locator('html').evaluate((h) => Math.ceil(h.getBoundingClientRect().height));
      await eventually(
        () => page.evaluate(`parseInt(document.getElementById('view').style.height)`),
        (v) => expect(v).toBeGreaterThanOrEqual(height),
      );
      await expectValidMessages(page);
    } finally {
      await page.close();
    }
  });
});
