/**
 * search_apartments_on_map (docs/contract.md, "search_apartments_on_map"): the search's filters and fields,
 * no paging, at most 250 pins, and map_view behind the server-side toggle. Over the SDK's MCP client
 * on a generated world; expected homes from the naive model (test/support/search-model.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { addDays } from '../../services/kernel/engine/dates';
import { startService, type RunningService } from '../../services/main';
import { startFixture, type Fixture } from '../support/fixture';
import { busiestCity, expectedResults, loadWorld, type World } from '../support/search-model';

let fx: Fixture;
let world: World;
let market: string;
let city: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  fx = await startFixture({ homes: 400, seed: 3 });
  world = await loadWorld(fx.mongo.collections, fx.today);
  ({ city, market } = busiestCity(world));
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

type Home = { slug: string } & Record<string, any>;

async function call(name: string, args: Record<string, unknown>) {
  const client = await fx.mcp();
  return client.callTool({ name, arguments: args });
}

function errorOf(result: Awaited<ReturnType<typeof call>>): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
}

describe('search_apartments_on_map', () => {
  it('the same per-apartment fields as the search, every match up to 250, map_view on', async () => {
    const args = { market, start_date: d(30), end_date: d(90), sort_by: 'price_desc' };
    const map = (await call('search_apartments_on_map', args)).structuredContent as Home;
    const list = (await call('search_apartments_tool', { ...args, per_page: 40, include_hero_images: false })).structuredContent as Home;
    expect(map.map_view).toEqual({ requested: true, enabled: true });
    expect(map.total_count).toBe(list.total_count);
    expect(map.homes.slice(0, 40)).toEqual(list.homes);
    expect(map.count).toBe(Math.min(250, map.total_count));
  });

  it('refuses paging and hero-image arguments', async () => {
    for (const extra of [{ page: 1 }, { per_page: 10 }, { include_hero_images: true }]) {
      expect(errorOf(await call('search_apartments_on_map', { market, ...extra })).code).toBe('unknown_parameter');
    }
  });

  it('says map_view enabled false with a reason when the server switches the map off, and still lists the homes', async () => {
    let off: RunningService | undefined;
    try {
      off = await startService({ ...fx.config, mapViewEnabled: false });
      const client = new Client({ name: 'map-off', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(off.url + '/mcp/public')));
      const res = (await client.callTool({ name: 'search_apartments_on_map', arguments: { market: city } })).structuredContent as Home;
      await client.close();
      expect(res.map_view).toEqual({ requested: true, enabled: false, reason: expect.any(String) });
      expect(res.total_count).toBe(expectedResults(world, { market: city }).length);
      expect(res.homes.length).toBe(Math.min(250, res.total_count));
    } finally {
      await off?.close();
    }
  });
});
