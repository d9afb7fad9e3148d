/**
 * search_apartments_tool, rule 6: on a client whose results widget shows the photos from their URLs,
 * the hero photos are not embedded as well unless include_hero_images is true. A 2026-07-28 request
 * says so by declaring the MCP Apps extension in its client capabilities; a 2025 client at initialize
 * (its session id then says so on each request); a 2025 client without it keeps the photos. Checked with the SDK clients on both eras, on the service as it
 * runs (fast tool call on) and on a copy with the SDK path alone.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startService, type RunningService } from '../../services/main';
import { WIDGET_EXTENSION } from '../../services/widgets/catalog';
import { startFixture, type Fixture } from '../support/fixture';

let fx: Fixture;
let sdkOnly: RunningService;
let market: string;
const clients: Array<ModernClient | LegacyClient> = [];

beforeAll(async () => {
  fx = await startFixture({ homes: 60, seed: 37 });
  sdkOnly = await startService({ ...fx.config, mcpFastToolCalls: false });
  // The market with the most apartments: a first page full of hero photos.
  const markets = (await fx.get('/api/public/markets')).body.markets as Array<{ slug: string }>;
  let most = -1;
  for (const { slug } of markets) {
    const total = (await fx.get(`/api/public/search?market=${slug}&per_page=1`)).body.total_count as number;
    if (total > most) [market, most] = [slug, total];
  }
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await sdkOnly?.close();
  await fx?.close();
});

/** The SDK v2 client on 2026-07-28 against `url`, declaring `capabilities`. */
async function modernClient(url: string, capabilities: Record<string, unknown>): Promise<ModernClient> {
  const client = new ModernClient({ name: 'hero-images-test', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(url + '/mcp/public')));
  clients.push(client);
  return client;
}

/** The SDK 1.x client on 2025-11-25 against `url`, declaring `capabilities` at initialize. */
async function legacyClient(url: string, capabilities: Record<string, unknown> = {}): Promise<LegacyClient> {
  const client = new LegacyClient({ name: 'hero-images-test', version: '1.0.0' }, { capabilities });
  await client.connect(new LegacyTransport(new URL(url + '/mcp/public')));
  clients.push(client);
  return client;
}

const WIDGET_HOST = { extensions: WIDGET_EXTENSION };

type Content = Array<{ type: string; _meta?: { home_slug?: string } }>;
const images = (result: Record<string, unknown>): Content => ((result.content ?? []) as Content).filter((c) => c.type === 'image');

async function heroImages(client: ModernClient | LegacyClient, extra: Record<string, unknown> = {}): Promise<Content> {
  const params = { name: 'search_apartments_tool', arguments: { market, ...extra } };
  const result = client instanceof ModernClient ? await client.callTool(params) : await client.callTool(params);
  expect(result.isError ?? false).toBe(false);
  return images(result as Record<string, unknown>);
}

describe.each([
  ['the service', () => fx.url],
  ['the SDK path alone', () => sdkOnly.url],
])('search_apartments_tool hero photos on %s', (_where, url) => {
  it('a 2025 client (SDK 1.x) gets them embedded by default, as always', async () => {
    const legacy = await legacyClient(url());
    expect((await heroImages(legacy)).length).toBeGreaterThan(0);
    expect(await heroImages(legacy, { include_hero_images: false })).toEqual([]);
  });

  it('a 2025 client that declared the MCP Apps extension at initialize gets none unless include_hero_images is true', async () => {
    const host = await legacyClient(url(), WIDGET_HOST);
    expect(await heroImages(host)).toEqual([]);
    expect((await heroImages(host, { include_hero_images: true })).length).toBeGreaterThan(0);
  });

  it('a 2026-07-28 client without the MCP Apps extension gets them embedded by default', async () => {
    const client = await modernClient(url(), {});
    const embedded = await heroImages(client);
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.length).toBeLessThanOrEqual(5);
  });

  it('a 2026-07-28 client that renders the widget gets none unless include_hero_images is true', async () => {
    const client = await modernClient(url(), WIDGET_HOST);
    expect(await heroImages(client)).toEqual([]);
    expect(await heroImages(client, { include_hero_images: false })).toEqual([]);
    const asked = await heroImages(client, { include_hero_images: true });
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((img) => typeof img._meta?.home_slug === 'string')).toBe(true);
  });

  it('a client declaring the extension with another MIME type is not a widget host', async () => {
    const client = await modernClient(url(), { extensions: { [Object.keys(WIDGET_EXTENSION)[0]]: { mimeTypes: ['text/html;profile=other'] } } });
    expect((await heroImages(client)).length).toBeGreaterThan(0);
  });
});
