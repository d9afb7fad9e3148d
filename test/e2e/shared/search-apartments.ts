/**
 * The shared world of the search_apartments_tool tests (test/e2e/search-apartments-*.test.ts): 600
 * generated homes (seed 5), the naive model of them, its busiest city, and the calls the tests make
 * through GET /api/public/search and the SDK's MCP client.
 */
import { startFixture, type Fixture } from '../../support/fixture';
import { busiestCity, loadWorld, type World } from '../../support/search-model';

export type Home = { slug: string } & Record<string, any>;

export async function startSearchWorld(): Promise<{ fx: Fixture; world: World; city: string; market: string }> {
  const fx = await startFixture({ homes: 600, seed: 5 });
  const world = await loadWorld(fx.mongo.collections, fx.today);
  const { city, market } = busiestCity(world);
  return { fx, world, city, market };
}

/** The calls of the tests, on the fixture the file started (read when called). */
export function searchCalls(fixture: () => Fixture) {
  async function get(query: string) {
    return fixture().get(`/api/public/search?${query}`);
  }

  async function call(name: string, args: Record<string, unknown>) {
    const client = await fixture().mcp();
    return client.callTool({ name, arguments: args });
  }

  function errorOf(result: Awaited<ReturnType<typeof call>>): { code: string; message: string } {
    expect(result.isError).toBe(true);
    return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
  }

  /** Every page of a tool search, concatenated. */
  async function allHomes(args: Record<string, unknown>): Promise<Home[]> {
    const homes: Home[] = [];
    for (let page = 1; ; page++) {
      const res = (await call('search_apartments_tool', { ...args, page, per_page: 40, include_hero_images: false })).structuredContent as Home;
      homes.push(...res.homes);
      if (page >= res.total_pages) return homes;
    }
  }

  return { get, call, errorOf, allHomes };
}

export const slugsOf = (xs: Array<{ slug: string }>): string[] => xs.map((x) => x.slug).sort();
