/**
 * The interactive-app widgets as MCP resources (MCP Apps, "the interactive-app
 * extension"), over the SDK's Client: resources/list and resources/read for both widgets, an unknown
 * URI as a JSON-RPC error, and each search tool naming its widget in tools/list and tools.json.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { CARD_GRID_WIDGET, MAP_WIDGET, WIDGET_MIME_TYPE } from '../../services/widgets/catalog';
import { startFixture, type Fixture } from '../support/fixture';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 20 });
});

afterAll(async () => {
  await fx?.close();
});

const WIDGETS = [
  { widget: CARD_GRID_WIDGET, tool: 'search_apartments_tool' },
  { widget: MAP_WIDGET, tool: 'search_apartments_on_map' },
];

describe('resources/list', () => {
  it('declares the resources capability and lists both widgets with the MCP Apps MIME type and their CSP', async () => {
    const client = await fx.mcp();
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([CARD_GRID_WIDGET.uri, MAP_WIDGET.uri].sort());
    for (const r of resources) {
      expect(r.uri).toMatch(/^ui:\/\//);
      expect(r.mimeType).toBe('text/html;profile=mcp-app');
      expect(r.name).toEqual(expect.any(String));
      expect(r._meta).toMatchObject({ ui: { csp: { connectDomains: [], resourceDomains: [new URL(fx.config.publicBaseUrl).origin] } } });
    }
  });
});

describe('resources/read', () => {
  it.each(WIDGETS)('answers $widget.uri as one self-contained HTML document', async ({ widget }) => {
    const client = await fx.mcp();
    const { contents } = await client.readResource({ uri: widget.uri });
    expect(contents).toHaveLength(1);
    const [doc] = contents;
    expect(doc.uri).toBe(widget.uri);
    expect(doc.mimeType).toBe(WIDGET_MIME_TYPE);
    const html = (doc as { text: string }).text;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<script>');
    // No CDN, no tile server: nothing is loaded from anywhere.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import|https?:\/\/[^"'\s]*\.(js|css)\b/i);
    expect(html).toContain('ui/notifications/tool-result');
  });

  it('bundles the US basemap into the map widget', async () => {
    const client = await fx.mcp();
    const html = ((await client.readResource({ uri: MAP_WIDGET.uri })).contents[0] as { text: string }).text;
    // us-atlas states at 1:10m are a TopoJSON of ~115 kB: the document carries it.
    expect(html).toContain('"Topology"');
    expect(html.length).toBeGreaterThan(100_000);
  });

  it('answers an unknown URI with -32602 carrying the URI in data (SEP-2164, both eras)', async () => {
    const client = await fx.mcp();
    const read = client.readResource({ uri: 'ui://furnished-catalog/nope.html' });
    await expect(read).rejects.toBeInstanceOf(McpError);
    await expect(read).rejects.toMatchObject({ code: -32602, data: { uri: 'ui://furnished-catalog/nope.html' } });
  });
});

describe('tools/list and GET /api/public/tools.json', () => {
  it('name each search widget in _meta.ui.resourceUri and openai/outputTemplate, and no other tool has one', async () => {
    const client = await fx.mcp();
    const { tools } = await client.listTools();
    for (const { widget, tool } of WIDGETS) {
      expect(tools.find((t) => t.name === tool)?._meta).toEqual({ ui: { resourceUri: widget.uri }, 'openai/outputTemplate': widget.uri });
    }
    const others = tools.filter((t) => !WIDGETS.some((w) => w.tool === t.name));
    expect(others.length).toBeGreaterThan(0);
    for (const t of others) expect(t._meta).toBeUndefined();
    // tools.json is the list a model may be given, and what a plain client is listed.
    const json = await fx.get('/api/public/tools.json');
    expect(json.body).toEqual({ tools });
    // The map widget's own tool is listed to a host of widgets, app-only (MCP Apps visibility), with no widget of its own.
    const host = await fx.mcp({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [WIDGET_MIME_TYPE] } } });
    const hosted = (await host.listTools()).tools;
    expect(hosted.find((t) => t.name === 'search_map_viewport')?._meta).toEqual({ ui: { visibility: ['app'] } });
    expect(hosted.filter((t) => t.name !== 'search_map_viewport')).toEqual(tools);
  });
});
