/**
 * "No query shape loads a whole market into Node" (docs/design.md, "Exact prices in search"): a search prices at most
 * SEARCH_MAX_PRICED homes exactly; a deeper price-sorted page of a dated stay is refused with the
 * error object and what to narrow, never answered by pricing the whole market. Here the limit is
 * set low (55) so a small world can reach it.
 */
import { addDays } from '../../services/kernel/engine/dates';
import { startFixture, type Fixture } from '../support/fixture';
import { busiestCity, loadWorld } from '../support/search-model';

let fx: Fixture;
let market: string;

beforeAll(async () => {
  fx = await startFixture({ homes: 1500, seed: 5, env: { SEARCH_MAX_PRICED: '55' } });
  ({ market } = busiestCity(await loadWorld(fx.mongo.collections, fx.today)));
});

afterAll(async () => {
  await fx?.close();
});

interface Page {
  total_count: number;
  homes: Array<{ slug: string; display_price_with_discount: number }>;
}

describe('the pricing bound of a search', () => {
  it('answers a first price-sorted page, and refuses a page it could only order by pricing more than the bound', async () => {
    // The stay most homes can take; a sort that prices only its page tells how many match.
    let best = { total: 0, start: '', end: '' };
    for (const days of [10, 30, 60, 90]) {
      for (const nights of [30, 45, 60]) {
        const start = addDays(fx.today, days);
        const end = addDays(start, nights);
        const res = await fx.get(`/api/public/search?market=${market}&check_in=${start}&check_out=${end}&sort_by=newest&per_page=1`);
        if ((res.body as Page).total_count > best.total) best = { total: (res.body as Page).total_count, start, end };
      }
    }
    // Page 2 of 40 holds the homes 41-80: a stay more than 80 homes can take has it whole, and ordering it
    // by price prices more homes than the bound (55). (The generated calendars move with today: no fixed count.)
    expect(best.total).toBeGreaterThan(80);
    const { start } = best;
    const stay = `market=${market}&check_in=${start}&check_out=${best.end}`;

    const first = await fx.get(`/api/public/search?${stay}&sort_by=price_asc&per_page=5`);
    expect(first.status).toBe(200);
    expect((first.body as Page).homes).toHaveLength(5);

    const deep = await fx.get(`/api/public/search?${stay}&sort_by=price_asc&per_page=40&page=2`);
    expect(deep.status).toBe(400);
    expect(deep.body.error.code).toBe('search_too_broad');
    expect(deep.body.error.message).toMatch(/min_price/);

    // The same refusal on the tool server, as an error result.
    const client = await fx.mcp();
    const result = await client.callTool({
      name: 'search_apartments_tool',
      arguments: { market, start_date: start, end_date: best.end, sort_by: 'price_desc', per_page: 40, page: 2, include_hero_images: false },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0].text).error.code).toBe('search_too_broad');
  });

  it('reaches further by price with min_price at the last price shown, as the refusal suggests', async () => {
    const start = addDays(fx.today, 20);
    const stay = `market=${market}&check_in=${start}&check_out=${addDays(start, 40)}&price_unit=per_month`;
    const first = (await fx.get(`/api/public/search?${stay}&sort_by=price_asc&per_page=20`)).body as Page;
    const last = first.homes[first.homes.length - 1].display_price_with_discount;
    const next = await fx.get(`/api/public/search?${stay}&sort_by=price_asc&per_page=20&min_price=${last}`);
    expect(next.status).toBe(200);
    const prices = (next.body as Page).homes.map((h) => h.display_price_with_discount);
    expect(prices.length).toBeGreaterThan(0);
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(last);
  });

  it('a window of move-in dates: a first page, and the refusal of a page it could only order by pricing past the bound (a home counts once per 20 stays)', async () => {
    const window = `market=${market}&check_in=${addDays(fx.today, 10)}&latest_check_in=${addDays(fx.today, 70)}&nights=30`;
    const first = await fx.get(`/api/public/search?${window}&sort_by=price_asc&per_page=5`);
    expect(first.status).toBe(200);
    expect((first.body as Page).homes).toHaveLength(5);
    expect((first.body as Page).total_count).toBeGreaterThan(40);
    // 61 starts: a home bookable from more than 20 of them counts more than once. By newest only the page is priced:
    // 10 homes are at most 40 units; 40 homes would be 40 units at one a home, and are more than 55 here.
    expect((await fx.get(`/api/public/search?${window}&sort_by=newest&per_page=10`)).status).toBe(200);
    const wide = await fx.get(`/api/public/search?${window}&sort_by=newest&per_page=40`);
    expect(wide.status).toBe(400);
    expect(wide.body.error.code).toBe('search_too_broad');
    const deep = await fx.get(`/api/public/search?${window}&sort_by=price_asc&per_page=40&page=2`);
    expect(deep.body.error.code).toBe('search_too_broad');
    const client = await fx.mcp();
    const result = await client.callTool({
      name: 'search_apartments_on_map',
      arguments: { market, start_date: addDays(fx.today, 10), latest_start_date: addDays(fx.today, 40), nights: 30, sort_by: 'availability' },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0].text).error.code).toBe('search_too_broad');
  });
});
