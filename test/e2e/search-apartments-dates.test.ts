/**
 * search_apartments_tool (GET /api/public/search) and search_apartments_on_map: the dates
 * (docs/contract.md, "Dates", rule 1, "Limits"), over real HTTP and the SDK's MCP client on a generated world (test/e2e/shared/search-apartments.ts).
 * Expected homes come from the naive model (the stay engine over the records).
 */
import { addDays, addYears } from '../../services/kernel/engine/dates';
import type { Fixture } from '../support/fixture';
import { expectedResults, type World } from '../support/search-model';
import { searchCalls, slugsOf, startSearchWorld } from './shared/search-apartments';

let fx: Fixture;
let world: World;
let market: string;
let city: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  ({ fx, world, city, market } = await startSearchWorld());
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

const { get, call, errorOf, allHomes } = searchCalls(() => fx);

describe('dates (rule 1, Limits)', () => {
  it.each(['check_in', 'check_out', 'checkin', 'checkout', 'start', 'end'])('the tools refuse "%s" instead of searching undated', async (name) => {
    for (const tool of ['search_apartments_tool', 'search_apartments_on_map']) {
      const err = errorOf(await call(tool, { market, [name]: d(10) }));
      expect(err.code).toBe('unknown_parameter');
      expect(err.message).toMatch(/start_date|end_date/);
    }
  });

  it('takes start_date up to 365 days ahead and refuses later, more than 7 days past, or an end past 3 years', async () => {
    expect((await get(`market=${market}&check_in=${d(365)}`)).status).toBe(200);
    expect((await get(`market=${market}&check_in=${d(366)}`)).body.error.code).toBe('invalid_date');
    expect((await get(`market=${market}&check_in=${d(-8)}&check_out=${d(20)}`)).body.error.code).toBe('invalid_date');
    expect((await get(`market=${market}&check_in=${d(10)}&check_out=${addDays(addYears(fx.today, 3), 1)}`)).body.error.code).toBe('invalid_date');
    expect((await get(`market=${market}&check_in=${d(10)}&check_out=${addYears(fx.today, 3)}`)).status).toBe(200);
    for (const bad of [
      `check_in=${d(10)}&check_out=${d(10)}`,
      `check_out=${d(10)}`,
      'check_in=2027-02-30',
      `check_in=${d(10)}&check_out=${d(40)}&committed_nights=180`,
    ]) {
      const res = await get(`market=${market}&${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
  });

  it('a move-in date up to 7 days past is taken, and finds nothing: no stay starts in the past', async () => {
    const res = await get(`market=${market}&check_in=${d(-7)}&check_out=${d(20)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_count: 0, total_pages: 0, homes: [] });
  });

  it('undated: every home search can return, at the reference price the apartment read shows', async () => {
    const homes = await allHomes({ market: city });
    expect(slugsOf(homes)).toEqual(slugsOf(expectedResults(world, { market: city })));
    for (const h of homes.slice(0, 5)) {
      const read = await fx.get(`/api/public/homes/${h.slug}`);
      expect(h.display_price_with_discount).toBe(read.body.display_price_with_discount);
      expect(h.display_price_label).toBe(read.body.display_price_label);
      expect(new URL(h.home_url).search).toBe('');
    }
  });

  it('a move-in date alone: the homes a stay can start in on that date; the link carries the date', async () => {
    const args = { market, start_date: d(45) };
    const homes = await allHomes(args);
    expect(slugsOf(homes)).toEqual(slugsOf(expectedResults(world, args)));
    for (const h of homes) expect(Object.fromEntries(new URL(h.home_url).searchParams)).toEqual({ start_date: d(45) });
  });

  it("a fixed stay: only homes that can be booked for it, each with that stay's price and the dates in its link", async () => {
    const args = { market, start_date: d(21), end_date: d(26) };
    const homes = await allHomes(args);
    const expected = expectedResults(world, args);
    expect(slugsOf(homes)).toEqual(slugsOf(expected));
    expect(homes.length).toBeGreaterThan(0);
    for (const h of homes) {
      expect(h).toMatchObject({ is_price_nightly: true, duration_label: '/night', display_price_label: 'per night for 5 nights' });
      expect(Object.fromEntries(new URL(h.home_url).searchParams)).toEqual({ start_date: d(21), end_date: d(26) });
    }
  });

  it('Flex with a tier (rule 3): homes offering it that can hold the commitment, priced at that tier', async () => {
    const args = { market, start_date: d(14), end_date: 'indefinite', committed_nights: 365 };
    const homes = await allHomes(args);
    const expected = expectedResults(world, args);
    expect(slugsOf(homes)).toEqual(slugsOf(expected));
    for (const h of homes) {
      expect(h.display_price_label).toBe('per month with a 12-month Flex commitment');
      expect(Object.fromEntries(new URL(h.home_url).searchParams)).toEqual({ start_date: d(14), end_date: 'indefinite', committed_nights: '365' });
    }
  });

  it('Flex without a tier: every home open to Flex, at the cheapest tier it can hold, named in the link', async () => {
    const args = { market, start_date: d(14), end_date: 'indefinite' };
    const homes = await allHomes(args);
    const expected = new Map(expectedResults(world, args).map((r) => [r.slug, r]));
    expect(slugsOf(homes)).toEqual([...expected.keys()].sort());
    for (const h of homes) {
      const model = expected.get(h.slug)!;
      expect(h.display_price_with_discount).toBe(model.price.display_price_with_discount);
      const cn = new URL(h.home_url).searchParams.get('committed_nights');
      expect(model.stay).toEqual({ kind: 'flex', start_date: d(14), committed_nights: Number(cn) });
      const quote = await fx.get(`/api/public/homes/${h.slug}/quote?check_in=${d(14)}&check_out=indefinite&committed_nights=${cn}`);
      expect(quote.body.display_price_with_discount).toBe(h.display_price_with_discount);
    }
  });
});
