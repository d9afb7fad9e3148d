/**
 * get_quote_tool (GET /api/public/homes/{slug}/quote) through real HTTP on real servers, for handcrafted
 * homes whose every rule is known (test/e2e/shared/stay-homes.ts).
 */
import type { Fixture } from '../support/fixture';
import { startStayFixture } from './shared/stay-homes';
import { addDays } from '../../services/kernel/engine/dates';

let fx: Fixture;
let today: string;
const d = (n: number): string => addDays(today, n);

beforeAll(async () => {
  fx = await startStayFixture();
  today = fx.today;
});

afterAll(async () => {
  await fx?.close();
});

describe('GET /api/public/homes/{slug}/quote', () => {
  it('quotes a fixed stay with only the documented top-level price keys', async () => {
    const { status, body } = await fx.get(`/api/public/homes/test-open/quote?check_in=${d(10)}&check_out=${d(100)}`);
    expect(status).toBe(200);
    expect(body.available).toBe(true);
    expect(body.currency).toBe('USD');
    expect(body.is_price_monthly).toBe(true);
    expect(body.term_duration_label).toBe('3 months');
    expect(body).not.toHaveProperty('checkout_total');
    expect(body).not.toHaveProperty('total_cost_estimate');
    const cs = body.charge_schedule;
    expect(cs.checkout.total).toBeGreaterThan(0);
    expect(cs.total_cost).toBeGreaterThan(0);
    expect(body.monthly_total).toBe(cs.monthly.total);
    expect(body.guarantee).toMatch(/guarantee/);
    expect(body.widget_hero_image_url).toBe(body.media[0].widget_url);
  });

  it('quotes a Flex stay: no total_cost, first month = checkout + deferred', async () => {
    const { body } = await fx.get(`/api/public/homes/test-open/quote?check_in=${d(10)}&check_out=indefinite&committed_nights=365`);
    expect(body.available).toBe(true);
    expect(body.charge_schedule).not.toHaveProperty('total_cost');
    expect(body.charge_schedule.deferred.total).toBeGreaterThan(0);
    expect(body.term_duration_label).toMatch(/committed/);
    expect(body.monthly_total).toBe(body.charge_schedule.monthly.total);
  });

  it('rejects a tier the apartment does not offer instead of pricing it', async () => {
    const { status, body } = await fx.get(`/api/public/homes/test-open/quote?check_in=${d(10)}&check_out=indefinite&committed_nights=270`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('tier_not_offered');
    expect(body.error.message).toContain('180');
  });

  it('rejects more than 2 pets', async () => {
    const { status, body } = await fx.get(`/api/public/homes/test-open/quote?check_in=${d(10)}&check_out=${d(20)}&cats=2&dogs=1`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_parameters');
  });

  it('answers available false, not a price, for a pet type the property does not allow', async () => {
    const { status, body } = await fx.get(`/api/public/homes/test-blocked/quote?check_in=${d(45)}&check_out=${d(60)}&dogs=1`);
    expect(status).toBe(200);
    expect(body.available).toBe(false);
    expect(body.unavailable_reason).toMatch(/dog/i);
    expect(body).not.toHaveProperty('unbookable_reason');
    expect(body).not.toHaveProperty('display_price_with_discount');
  });

  it('refuses dogs where the building bans them, even if the unit record allows them', async () => {
    const { body } = await fx.get(`/api/public/homes/test-building-nodogs/quote?check_in=${d(10)}&check_out=${d(20)}&dogs=1`);
    expect(body.available).toBe(false);
    expect(body.unavailable_reason).toMatch(/dog/i);
  });

  it('refuses dates more than 3 years ahead instead of pricing a centuries-long stay', async () => {
    const { status, body } = await fx.get(`/api/public/homes/test-open/quote?check_in=${d(10)}&check_out=9999-12-31`);
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_date');
  });

  it('prices allowed pets into the charge schedule', async () => {
    const without = await fx.get(`/api/public/homes/test-blocked/quote?check_in=${d(45)}&check_out=${d(60)}`);
    const withCat = await fx.get(`/api/public/homes/test-blocked/quote?check_in=${d(45)}&check_out=${d(60)}&cats=1`);
    expect(withCat.body.available).toBe(true);
    expect(withCat.body.charge_schedule.total_cost).toBeGreaterThanOrEqual(without.body.charge_schedule.total_cost);
  });

  it('gives a structured unbookable_reason for a date-specific calendar block', async () => {
    const { body } = await fx.get(`/api/public/homes/test-blocked/quote?check_in=${d(15)}&check_out=${d(25)}`);
    expect(body.available).toBe(false);
    expect(body.unbookable_reason).toMatchObject({ code: 'not_open_for_occupancy', date: d(20) });
    expect(body.unavailable_reason).toEqual(expect.any(String));
  });

  it('refuses a Flex commitment that runs past the must-vacate date', async () => {
    const { body } = await fx.get(`/api/public/homes/test-minstay/quote?check_in=${d(30)}&check_out=indefinite&committed_nights=180`);
    expect(body.available).toBe(false);
    expect(body.unbookable_reason.code).toBe('past_must_vacate_by');
  });

  it('refuses a stay shorter than the move-in date minimum', async () => {
    const { body } = await fx.get(`/api/public/homes/test-minstay/quote?check_in=${d(10)}&check_out=${d(20)}`);
    expect(body.available).toBe(false);
    expect(body.unbookable_reason).toMatchObject({ code: 'below_minimum_stay', minimum_nightly_stay: 30 });
  });

  it.each([
    ['a missing check_out', () => `check_in=${d(10)}`],
    ['indefinite without committed_nights', () => `check_in=${d(10)}&check_out=indefinite`],
    ['an impossible date', () => `check_in=2027-02-30&check_out=2027-03-05`],
    ['negative cats', () => `check_in=${d(10)}&check_out=${d(20)}&cats=-1`],
  ])('answers 400 for %s', async (_l, q) => {
    const { status, body } = await fx.get(`/api/public/homes/test-open/quote?${q()}`);
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: expect.any(String), message: expect.any(String) });
  });
});
