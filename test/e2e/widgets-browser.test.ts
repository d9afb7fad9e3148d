/**
 * The widgets in headless Chromium: Debian's chromium driven by playwright-core, each
 * widget read with resources/read and fed a real tool result from the real stores, delivered as an
 * MCP Apps host does (test/support/widget-host.ts), or as ChatGPT's window.openai. The cards and pins
 * are on screen (a card with the words a search matched marked), a click names its home, the map says
 * when it is off; screenshots go to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { startService, type RunningService } from '../../services/main';
import { addDays } from '../../services/kernel/engine/dates';
import { stayLabel, type ChosenStay } from '../../services/kernel/engine/stay-label';
import { fragmentRuns, matchedFieldName } from '../../services/kernel/text/marked-fragment';
import { CARD_GRID_WIDGET, MAP_WIDGET } from '../../services/widgets/catalog';
import { seriousViolations } from '../support/axe';
import { busiestCity, startFixture, type Fixture } from '../support/fixture';
import { fullPageShot, hostMessages, showInHost, type HostedResult } from '../support/widget-host';
import { CHROMIUM_HINT, findChromium } from '../support/chromium';
import { openBrowser } from '../support/browser';

const CHROMIUM = findChromium();
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts');

let fx: Fixture;
let browser: Browser;
let city: string;

interface Home {
  slug: string;
  name: string;
}

beforeAll(async () => {
  if (!CHROMIUM) throw new Error(CHROMIUM_HINT);
  mkdirSync(ARTIFACTS, { recursive: true });
  // Enough homes that a viewport over the whole country passes the map's 250 pins (and is drawn as clusters).
  fx = await startFixture({ homes: 320, seed: 5 });
  city = await busiestCity(fx);
  browser = await openBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

/** What a host needs of its MCP client: the SDK 1.x client (2025-11-25) and the SDK v2 client (2026-07-28) both are one. */
interface ToolClient {
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/** Hosts of both protocol eras read the same widget and the same result. */
const ERAS = [['2025-11-25'], ['2026-07-28']] as const;
const clientOf = (era: string): Promise<ToolClient> => (era === '2026-07-28' ? fx.mcpModern() : fx.mcp());
const shotName = (file: string, era: string): string => (era === '2026-07-28' ? file.replace('.png', '-2026.png') : file);

async function widgetHtml(client: ToolClient, uri: string): Promise<string> {
  return ((await client.readResource({ uri })).contents[0] as { text: string }).text;
}

async function callTool(client: ToolClient, name: string, args: Record<string, unknown>): Promise<HostedResult> {
  const result = (await client.callTool({ name, arguments: args })) as HostedResult;
  expect(result.isError).toBeFalsy();
  return result;
}

/** A page whose requests are recorded; the photo origin the results name (PUBLIC_BASE_URL) is served from the test's service. */
/** Photos the service did not answer with 200, with their status: named when a card loses its photo. */
const failedPhotos: string[] = [];

async function newPage(width: number, height: number): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const requests: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('data:')) requests.push(r.url());
  });
  const photos = new URL(fx.config.publicBaseUrl).origin;
  await page.route(`${photos}/**`, async (route) => {
    const url = new URL(route.request().url());
    // Fetched by the test and handed over, as a proxying host would (the page never reaches the loopback itself).
    // A proxy retries once when the connection itself fails (a kept-alive socket the service just closed);
    // an answer from the service, whatever its status, is handed over as it is.
    const fetchPhoto = () => route.fetch({ url: fx.url + url.pathname + url.search });
    const response = await fetchPhoto().catch(fetchPhoto);
    if (response.status() !== 200) failedPhotos.push(`${url.pathname}: ${response.status()}`);
    await route.fulfill({ response });
  });
  return { page, requests };
}

/** Waits until every photo has loaded or failed (a failed one is replaced by the placeholder). */
async function photosSettled(images: Locator): Promise<void> {
  await images.evaluateAll((imgs) =>
    Promise.all(
      imgs.map(
        (img) =>
          img.complete ||
          new Promise((done) => {
            img.addEventListener('load', done);
            img.addEventListener('error', done);
          }),
      ),
    ),
  );
}

/** How many images there are once there are `wanted`, or after 15 s (whatever there are then). */
async function imagesWhenShown(images: Locator, wanted: number): Promise<number> {
  const until = Date.now() + 15_000;
  for (;;) {
    const n = await images.count();
    if (n >= wanted || Date.now() > until) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A full-page screenshot once the host has sized the frame to the widget's content (size-changed). */
async function screenshot(page: Page, file: string): Promise<void> {
  const height = (await page.frames()[1].evaluate('Math.ceil(document.documentElement.getBoundingClientRect().height)')) as number;
  await page.waitForFunction(`parseInt(document.getElementById('view').style.height) >= ${height}`);
  await fullPageShot(page, height, path.join(ARTIFACTS, file));
}

const homesOf = (result: HostedResult): Home[] => (result.structuredContent as { homes: Home[] }).homes;

describe('the card-grid widget (search_apartments_tool)', () => {
  it.each(ERAS)('shows one card per home of the real result, and a click names its home and asks the host about it (%s host)', async (era) => {
    const client = await clientOf(era);
    const input = { market: city, per_page: 12 };
    const result = await callTool(client, 'search_apartments_tool', input);
    const homes = homesOf(result);
    expect(homes.length).toBeGreaterThan(3);
    const { page } = await newPage(1000, 800);
    try {
      await showInHost(page, await widgetHtml(client, CARD_GRID_WIDGET.uri), input, result);
      const view = page.frameLocator('#view');
      await view.locator('.card').first().waitFor();
      const cards = view.locator('.card');
      expect(await cards.count()).toBe(homes.length);
      expect(await cards.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-slug')))).toEqual(homes.map((h) => h.slug));
      expect(await cards.nth(homes.length - 1).isVisible()).toBe(true);
      expect(await view.locator('.stay-dates').count()).toBe(0); // no window of move-in dates, no chosen stay
      expect(await seriousViolations(page.frames()[1] as unknown as Page)).toEqual([]);
      // The first five hero photos come embedded in the result and are shown from it.
      expect(await view.locator('.card img[src^="data:image/jpeg;base64,"]').count()).toBe(Math.min(5, homes.length));

      const chosen = homes[2];
      await cards.nth(2).click();
      await expect(view.locator('.card.selected').getAttribute('data-slug')).resolves.toBe(chosen.slug);
      const said = await view.locator('[data-testid="selection"]').textContent();
      expect(said).toContain(chosen.name);
      expect(said).toContain(chosen.slug);
      const messages = await hostMessages(page);
      expect(messages).toHaveLength(1);
      expect(messages[0].role).toBe('user');
      expect(messages[0].content[0].text).toContain(chosen.slug);

      // The rest are asked of the service: their elements appear when it answers (later on a loaded machine).
      expect(await imagesWhenShown(view.locator('.card img'), homes.length)).toBe(homes.length); // the rest loaded from the service
      await photosSettled(view.locator('.card img'));
      expect(failedPhotos).toEqual([]);
      await screenshot(page, shotName('search-cards.png', era));
    } finally {
      await page.close();
    }
  });

  it("shows each home's best stay (its dates) when the search names a window of move-in dates", async () => {
    const client = await fx.mcp();
    const start = addDays(fx.today, 30);
    const input = { market: city, start_date: start, latest_start_date: addDays(start, 14), nights: 60, per_page: 6, include_hero_images: false };
    const result = await callTool(client, 'search_apartments_tool', input);
    const homes = (result.structuredContent as { homes: Array<Home & { stay: ChosenStay }> }).homes;
    expect(homes.length).toBeGreaterThan(0);
    const { page } = await newPage(1000, 800);
    try {
      await showInHost(page, await widgetHtml(client, CARD_GRID_WIDGET.uri), input, result);
      const view = page.frameLocator('#view');
      await view.locator('.card').first().waitFor();
      expect(await view.locator('.card .stay-dates').allTextContents()).toEqual(homes.map((h) => stayLabel(h.stay)));
      expect(await view.locator('.card .stay-dates').first().textContent()).toContain(String(homes[0].stay.nights));
      // The card is one button named by its content: the name a screen reader says carries the stay too.
      expect(
        await view
          .getByRole('button', { name: stayLabel(homes[0].stay) })
          .first()
          .getAttribute('data-slug'),
      ).toBe(homes[0].slug);
      expect(await seriousViolations(page.frames()[1] as unknown as Page)).toEqual([]);
      await screenshot(page, 'search-cards-move-in-window.png');
    } finally {
      await page.close();
    }
  });

  it('shows the fields a word search matched, the words in <mark> and nothing of a fragment parsed as HTML but the marks', async () => {
    const client = await fx.mcp();
    type Matched = Array<{ field: string; text: string }>;
    let input: Record<string, unknown> = {};
    let result: HostedResult | undefined;
    // A building amenity word that some homes of the city have.
    for (const q of ['rooftop', 'coworking', 'doorman', 'concierge', 'pool']) {
      input = { market: city, q, per_page: 6, include_hero_images: false };
      result = await callTool(client, 'search_apartments_tool', input);
      if (homesOf(result).length > 0) break;
    }
    const homes = (result!.structuredContent as { homes: Array<Home & { matched: Matched }> }).homes;
    expect(homes.length).toBeGreaterThan(0);
    // The first home's fragments as the service writes them, and one no service writes: other markup in it stays text.
    const hostile = { field: 'description', text: '&lt;b&gt;Bold&lt;/b&gt; <img src=x onerror="window.__hit=1"> <mark>Roof</mark>top' };
    homes[0].matched = [...homes[0].matched, hostile];
    const { page } = await newPage(1000, 800);
    try {
      await showInHost(page, await widgetHtml(client, CARD_GRID_WIDGET.uri), input, result!);
      const view = page.frameLocator('#view');
      await view.locator('.card').first().waitFor();
      for (const home of homes) {
        const card = view.locator(`.card[data-slug="${home.slug}"]`);
        expect(await card.locator('.matched p').allTextContents()).toEqual(
          home.matched.map(
            (m) =>
              `${matchedFieldName(m.field)}: ${fragmentRuns(m.text)
                .map((r) => r.text)
                .join('')}`,
          ),
        );
        expect(await card.locator('.matched mark').allTextContents()).toEqual(
          home.matched.flatMap((m) =>
            fragmentRuns(m.text)
              .filter((r) => r.marked)
              .map((r) => r.text),
          ),
        );
      }
      expect(await view.locator('.card .matched mark').count()).toBeGreaterThan(1);
      expect(await view.locator(`.card[data-slug="${homes[0].slug}"] .matched p`).last().textContent()).toBe(
        'Description: <b>Bold</b> <img src=x onerror="window.__hit=1"> Rooftop',
      );
      expect(new Set(await view.locator('.card .matched p *').evaluateAll((els) => els.map((e) => e.tagName)))).toEqual(new Set(['SPAN', 'MARK']));
      expect(await page.frames()[1].evaluate('window.__hit')).toBeUndefined();
      expect(await seriousViolations(page.frames()[1] as unknown as Page)).toEqual([]);
      await screenshot(page, 'search-cards-matched.png');
    } finally {
      await page.close();
    }
  });

  it("also reads ChatGPT's window.openai.toolOutput and sends a follow-up message on a click", async () => {
    const client = await fx.mcp();
    const result = await callTool(client, 'search_apartments_tool', { market: city, per_page: 6, include_hero_images: false });
    const homes = homesOf(result);
    const { page } = await newPage(900, 700);
    try {
      // ChatGPT sets window.openai before the widget's script runs: an init script on a served page.
      await page.addInitScript(
        `window.__followUps = []; window.openai = { toolOutput: ${JSON.stringify(result.structuredContent)}, theme: 'dark',
          sendFollowUpMessage: async (m) => { window.__followUps.push(m.prompt); } };`,
      );
      // Served from the photos' origin, as ChatGPT's widget domain may be (a public page may not load a local photo).
      const html = await widgetHtml(client, CARD_GRID_WIDGET.uri);
      const at = `${new URL(fx.config.publicBaseUrl).origin}/widget-test/cards.html`;
      await page.route(at, (route) => route.fulfill({ contentType: 'text/html', body: html }));
      await page.goto(at);
      expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
      const cards = page.locator('.card');
      await cards.first().waitFor();
      expect(await cards.count()).toBe(homes.length);
      await cards.first().click();
      const followUps = (await page.evaluate('window.__followUps')) as string[];
      expect(followUps).toEqual([expect.stringContaining(homes[0].slug)]);
      await photosSettled(cards.locator('img'));
      expect(await cards.locator('img').count()).toBe(homes.length); // every photo loaded (none fell back)
      await page.screenshot({ path: path.join(ARTIFACTS, 'search-cards-openai-dark.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

describe('the map widget (search_apartments_on_map)', () => {
  it.each(ERAS)('draws one pin per home over the bundled basemap without a single request, and a click on a pin names its home (%s host)', async (era) => {
    const client = await clientOf(era);
    const input = { market: city };
    const result = await callTool(client, 'search_apartments_on_map', input);
    const homes = homesOf(result);
    expect(homes.length).toBeGreaterThan(3);
    const { page, requests } = await newPage(900, 700);
    try {
      await showInHost(page, await widgetHtml(client, MAP_WIDGET.uri), input, result);
      const view = page.frameLocator('#view');
      await view.locator('.pin').first().waitFor();
      const pins = view.locator('.pin');
      expect(await pins.count()).toBe(homes.length);
      expect((await pins.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-slug')))).sort()).toEqual(homes.map((h) => h.slug).sort());
      // Every pin inside the drawn map, and the basemap drawn (land paths with geometry).
      const inside = await pins.evaluateAll((nodes) =>
        nodes.every((n) => {
          const x = Number(n.getAttribute('cx'));
          const y = Number(n.getAttribute('cy'));
          return x >= 0 && x <= 720 && y >= 0 && y <= 440;
        }),
      );
      expect(inside).toBe(true);
      expect(await view.locator('.map path.land').getAttribute('d')).toMatch(/^M[\d.]/);
      expect(await view.locator('.inset').isVisible()).toBe(true);

      // The last pin is drawn on top of any neighbour it overlaps.
      const last = pins.nth(homes.length - 1);
      const slug = await last.getAttribute('data-slug');
      const chosen = homes.find((h) => h.slug === slug)!;
      await last.click();
      expect(await view.locator('.pin.selected').getAttribute('data-slug')).toBe(chosen.slug);
      const said = await view.locator('[data-testid="selection"]').textContent();
      expect(said).toContain(chosen.name);
      expect(said).toContain(chosen.slug);
      const messages = await hostMessages(page);
      expect(messages.map((m) => m.content[0].text)).toEqual([expect.stringContaining(chosen.slug)]);

      expect(requests).toEqual([]); // no CDN, no tile server
      await screenshot(page, shotName('search-map.png', era));
    } finally {
      await page.close();
    }
  });

  it('draws one marker per cluster with its count when a viewport matches more than 250 homes, and a click says the count and price', async () => {
    const client = await fx.mcp();
    const input = { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 };
    const result = await callTool(client, 'search_apartments_on_map', input);
    const answer = result.structuredContent as { total_count: number; clusters?: Array<{ tile: string; count: number; cheapest_display_price?: number }> };
    expect(answer.total_count).toBeGreaterThan(250);
    const clusters = answer.clusters ?? [];
    expect(clusters.length).toBeGreaterThan(1);
    const { page, requests } = await newPage(900, 700);
    try {
      await showInHost(page, await widgetHtml(client, MAP_WIDGET.uri), input, result);
      const view = page.frameLocator('#view');
      await view.locator('.cluster').first().waitFor();
      const markers = view.locator('.cluster');
      expect(await markers.count()).toBe(clusters.length);
      expect(await view.locator('.pin').count()).toBe(0);
      // Each marker shows its cluster's count, and together they show every match.
      const counts = await markers.evaluateAll((nodes) => nodes.map((n) => Number(n.querySelector('text')?.textContent)));
      expect(counts.sort((a, b) => a - b)).toEqual(clusters.map((c) => c.count).sort((a, b) => a - b));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(answer.total_count);
      expect(await view.locator('.summary').textContent()).toContain(`${answer.total_count} matches in ${clusters.length} clusters`);
      const biggest = clusters[0];
      await view.locator(`.cluster[data-tile="${biggest.tile}"]`).click();
      const said = await view.locator('[data-testid="selection"]').textContent();
      expect(said).toContain(`${biggest.count} apartments here`);
      expect(said).toContain(`$${biggest.cheapest_display_price!.toLocaleString('en-US')}`);
      expect(requests).toEqual([]);
      await screenshot(page, 'search-map-clusters.png');
    } finally {
      await page.close();
    }
  });

  it('shows the map-unavailable state with the reason when the server switches the map off, and still names a home on a click', async () => {
    let off: RunningService | undefined;
    const client = new Client({ name: 'map-off', version: '1.0.0' });
    const { page } = await newPage(900, 700);
    try {
      off = await startService({ ...fx.config, mapViewEnabled: false });
      await client.connect(new StreamableHTTPClientTransport(new URL(off.url + '/mcp/public')));
      const input = { market: city };
      const result = await callTool(client, 'search_apartments_on_map', input);
      const mapView = (result.structuredContent as { map_view: { enabled: boolean; reason: string } }).map_view;
      expect(mapView.enabled).toBe(false);
      const homes = homesOf(result);

      await showInHost(page, await widgetHtml(client, MAP_WIDGET.uri), input, result);
      const view = page.frameLocator('#view');
      const unavailable = view.locator('[data-testid="map-unavailable"]');
      await unavailable.waitFor();
      expect(await unavailable.textContent()).toContain('Map unavailable');
      expect(await unavailable.textContent()).toContain(mapView.reason);
      expect(await view.locator('.pin').count()).toBe(0);
      const items = view.locator('.home-list li');
      expect(await items.count()).toBe(homes.length);
      await items.first().click();
      expect(await view.locator('[data-testid="selection"]').textContent()).toContain(homes[0].slug);
      expect((await hostMessages(page))[0].content[0].text).toContain(homes[0].slug);
      await screenshot(page, 'search-map-unavailable.png');
    } finally {
      await page.close();
      await client.close();
      await off?.close();
    }
  });
});
