/**
 * tools/list and GET /api/public/tools.json: a plain client of either era (the SDK 1.x client on
 * 2025-11-25, the SDK v2 client on 2026-07-28) is listed exactly tools.json, without the map widget's
 * own tool; a client declaring the MCP Apps extension (at initialize on 2025-11-25, in each request's
 * envelope on 2026-07-28) is listed it too, app-only. The app-only tool stays callable by name.
 */
import { startFixture, type Fixture } from '../support/fixture';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 20 });
});

afterAll(async () => {
  await fx?.close();
});

const APP_ONLY = 'search_map_viewport';
/** What an MCP Apps host declares: the extension with the views' MIME type. */
const APPS_HOST = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

type Listed = Array<{ name: string; _meta?: Record<string, unknown> }>;

async function listed(era: '2025-11-25' | '2026-07-28', capabilities: Record<string, unknown>): Promise<Listed> {
  const client = era === '2025-11-25' ? await fx.mcp(capabilities) : await fx.mcpModern(capabilities);
  return (await client.listTools()).tools as Listed;
}

describe.each(['2025-11-25', '2026-07-28'] as const)('tools/list on %s', (era) => {
  it('lists a plain client exactly what GET /api/public/tools.json lists, without the app-only tool', async () => {
    const tools = await listed(era, {});
    expect(tools.map((t) => t.name)).not.toContain(APP_ONLY);
    const json = await fx.get('/api/public/tools.json');
    expect(json.status).toBe(200);
    expect(tools).toEqual(json.body.tools);
  });

  it('lists a client declaring the MCP Apps extension every tool of tools.json and the app-only tool, marked for the app', async () => {
    const tools = await listed(era, APPS_HOST);
    const json = await fx.get('/api/public/tools.json');
    expect(tools.filter((t) => t.name !== APP_ONLY)).toEqual(json.body.tools);
    expect(tools.find((t) => t.name === APP_ONLY)?._meta).toEqual({ ui: { visibility: ['app'] } });
  });

  it('does not list the app-only tool to a client whose MCP Apps declaration names no MIME type it can show', async () => {
    const tools = await listed(era, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/plain'] } } });
    expect(tools.map((t) => t.name)).not.toContain(APP_ONLY);
  });

  it('answers a plain client calling the app-only tool by name (a host may proxy its widget over any connection)', async () => {
    const client = era === '2025-11-25' ? await fx.mcp() : await fx.mcpModern();
    const result = await client.callTool({ name: APP_ONLY, arguments: { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 } });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual(expect.objectContaining({ total_count: expect.any(Number) }));
  });
});
