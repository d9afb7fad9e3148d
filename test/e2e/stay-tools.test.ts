/**
 * The apartment read, Flex options and quote through real HTTP and the MCP client, on real
 * servers, for handcrafted homes whose every rule is known, plus agreement checks on generated ones.
 */
import { startFixture, type Fixture } from '../support/fixture';
import { makeHome, openRange, closedRange } from '../support/arbitraries';
import { addDays } from '../../services/kernel/engine/dates';
import { checkStay } from '../../services/kernel/engine/stay-check';
import type { HomeRecord, PropertyRecord } from '../../services/kernel/inventory/records';

let fx: Fixture;
let today: string;
let rated: PropertyRecord;
let unrated: PropertyRecord;
const d = (n: number): string => addDays(today, n);

function home(slug: string, property: PropertyRecord, overrides: Partial<HomeRecord>): HomeRecord {
  return makeHome({
    _id: `test-${slug}`,
    slug,
    property_id: property._id,
    market_slug: property.market_slug,
    city_slug: property.city_slug,
    neighborhood_id: property.neighborhood_id,
    calendar: [openRange(d(-30), d(400))],
    created_at: new Date(),
    updated_at: new Date(),
    ...overrides,
  });
}

beforeAll(async () => {
  fx = await startFixture({ homes: 120 });
  today = fx.today;
  const base = (await fx.mongo.collections.properties.findOne({}))!;
  rated = {
    ...base,
    _id: 'test-prop-rated',
    slug: 'test-prop-rated',
    rating: { average: 4.6, count: 31 },
    scores: { walk_score: 88, walk_score_description: "Walker's Paradise", transit_score: 70, transit_score_description: 'Excellent Transit', bike_score: 60, bike_score_description: 'Bikeable' },
    photos: [{ id: 'ph-001' }, { id: 'ph-002' }, { id: 'ph-003' }, { id: 'ph-004' }, { id: 'ph-005' }],
  };
  unrated = { ...base, _id: 'test-prop-unrated', slug: 'test-prop-unrated', rating: null, scores: {}, photos: [] };
  const noDogs: PropertyRecord = { ...base, _id: 'test-prop-nodogs', slug: 'test-prop-nodogs', allows_cats: true, allows_dogs: false };
  await fx.mongo.collections.properties.insertMany([rated, unrated, noDogs]);
  await fx.mongo.collections.homes.insertMany([
    home('test-open', rated, { photos: [{ id: 'ph-010' }, { id: 'ph-011' }, { id: 'ph-012' }] }),
    home('test-nophotos', unrated, { photos: [], flex_eligible: false, flex_tiers: [] }),
    home('test-blocked', rated, {
      cats_allowed: true,
      dogs_allowed: false,
      calendar: [openRange(d(-30), d(20)), closedRange(d(20), d(40), 'reserved'), openRange(d(40), d(400))],
    }),
    home('test-minstay', rated, {
      minimum_nightly_stay: 30,
      flex_tiers: [
        { committed_nights: 180, monthly_rate_cents: 280_000 },
        { committed_nights: 270, monthly_rate_cents: 270_000 },
      ],
      must_vacate_by: d(200),
    }),
    home('test-unpublished', rated, { published: false }),
    home('test-building-nodogs', { ...rated, _id: 'test-prop-nodogs' }, { cats_allowed: true, dogs_allowed: true }),
  ]);
});

afterAll(async () => {
  await fx?.close();
});

describe('GET /api/public/homes/{slug}', () => {
  it('returns every field of the detail table for an undated read', async () => {
    const { status, body } = await fx.get('/api/public/homes/test-open');
    expect(status).toBe(200);
    for (const key of [
      'slug', 'bedrooms', 'photos', 'display_price_with_discount', 'display_price_label', 'display_price_without_discount',
      'is_price_monthly', 'is_price_nightly', 'duration_label', 'price_note', 'property', 'has_parking', 'pet_policy',
      'laundry_type', 'media', 'widget_hero_image_url', 'reservation_link', 'availability',
    ]) {
      expect(body).toHaveProperty(key);
    }
    expect(body).not.toHaveProperty('requested_stay');
    expect(body.price_note).toMatch(/all fees except taxes/i);
    expect(['/mo', '/night']).toContain(body.duration_label);
    expect(body.is_price_monthly).toBe(!body.is_price_nightly);
    expect(body.property).toMatchObject({ member_rating: { average: 4.6, count: 31 }, walk_score: 88, transit_score: 70, bike_score: 60 });
    expect(body.availability.earliest_available_date).toBe(today);
  });

  it('lists unit photos first, then building photos, the first marked hero, and media as the first 6', async () => {
    const { body } = await fx.get('/api/public/homes/test-open');
    expect(body.photos).toHaveLength(8);
    expect(body.photos.map((p: any) => p.source)).toEqual(['unit', 'unit', 'unit', 'building', 'building', 'building', 'building', 'building']);
    expect(body.photos[0].hero).toBe(true);
    expect(body.photos.filter((p: any) => p.hero)).toHaveLength(1);
    expect(body.media).toHaveLength(6);
    expect(body.media.map((m: any) => m.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(body.media.every((m: any) => m.type === 'photo')).toBe(true);
    expect(body.widget_hero_image_url).toBe(body.media[0].widget_url);
    const img = await fetch(body.media[0].widget_url.replace(fx.config.publicBaseUrl, fx.url));
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
  });

  it('omits member_rating and scores of an unrated building, and has a null widget hero without photos', async () => {
    const { body } = await fx.get('/api/public/homes/test-nophotos');
    expect(body.property).not.toHaveProperty('member_rating');
    expect(body.property).not.toHaveProperty('walk_score');
    expect(body.photos).toEqual([]);
    expect(body.media).toEqual([]);
    expect(body.widget_hero_image_url).toBeNull();
  });

  it('checks a bookable dated stay, pre-fills the link and clips the calendar to the stay', async () => {
    const { body } = await fx.get(`/api/public/homes/test-blocked?check_in=${d(45)}&check_out=${d(60)}`);
    expect(body.requested_stay).toEqual({ available: true });
    expect(body.reservation_link).toContain(`start_date=${d(45)}`);
    expect(body.reservation_link).toContain(`end_date=${d(60)}`);
    for (const w of body.availability.bookable_windows) {
      expect(w.start_date >= d(45)).toBe(true);
      expect(w.end_date <= d(60)).toBe(true);
    }
    expect(body.availability.earliest_available_date).toBe(today);
  });

  it('reports an unbookable stay with its reason and leaves the dates out of the link', async () => {
    const { body } = await fx.get(`/api/public/homes/test-blocked?check_in=${d(15)}&check_out=${d(25)}`);
    expect(body.requested_stay.available).toBe(false);
    expect(body.requested_stay.unavailable_reason).toEqual(expect.any(String));
    expect(body.requested_stay.unbookable_reason).toMatchObject({ code: 'not_open_for_occupancy', date: d(20), range_reason: 'reserved' });
    expect(body.reservation_link).not.toContain('start_date');
  });

  it('reports a Flex tier the apartment does not offer as not available, not as an error', async () => {
    const { status, body } = await fx.get(`/api/public/homes/test-open?check_in=${d(5)}&check_out=indefinite&committed_nights=200`);
    expect(status).toBe(200);
    expect(body.requested_stay.available).toBe(false);
    expect(body.reservation_link).not.toContain('committed_nights');
  });

  it('bakes an offered Flex tier into the reservation link', async () => {
    const { body } = await fx.get(`/api/public/homes/test-open?check_in=${d(5)}&check_out=indefinite&committed_nights=180`);
    expect(body.requested_stay).toEqual({ available: true });
    expect(body.reservation_link).toContain('committed_nights=180');
    expect(body.reservation_link).toContain('end_date=indefinite');
  });

  it.each([
    ['indefinite without committed_nights', () => `check_in=${d(5)}&check_out=indefinite`, 'invalid_parameters'],
    ['a start more than 7 days past', () => `check_in=${d(-8)}&check_out=${d(5)}`, 'invalid_date'],
    ['an end more than 3 years ahead', () => `check_in=${d(5)}&check_out=${d(3 * 365 + 5)}`, 'invalid_date'],
    ['an impossible date', () => `check_in=2026-02-30&check_out=2026-03-05`, 'invalid_date'],
    ['an end before the start', () => `check_in=${d(10)}&check_out=${d(5)}`, 'invalid_date'],
    ['a tool-server date name', () => `start_date=${d(5)}`, 'unknown_parameter'],
  ])('answers 400 for %s', async (_label, query, code) => {
    const { status, body } = await fx.get(`/api/public/homes/test-open?${query()}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('pre-fills only the move-in date when start_date alone is bookable', async () => {
    const { body } = await fx.get(`/api/public/homes/test-blocked?check_in=${d(45)}`);
    expect(body.requested_stay).toEqual({ available: true });
    expect(body.reservation_link).toContain(`start_date=${d(45)}`);
    expect(body.reservation_link).not.toContain('end_date');
    const blocked = await fx.get(`/api/public/homes/test-blocked?check_in=${d(25)}`);
    expect(blocked.body.requested_stay.available).toBe(false);
    expect(blocked.body.reservation_link).not.toContain('start_date');
  });

  it('reports a Flex tier the apartment does not offer even without dates', async () => {
    const { body } = await fx.get('/api/public/homes/test-open?committed_nights=200');
    expect(body.requested_stay.available).toBe(false);
    expect(body.requested_stay.unavailable_reason).toMatch(/180/);
  });

  it('applies the building pet rules over the unit flags', async () => {
    const { body } = await fx.get('/api/public/homes/test-building-nodogs');
    expect(body.pet_policy).toEqual({ cats_allowed: true, dogs_allowed: false });
  });

  it('answers 404 for an unknown or unpublished slug', async () => {
    for (const slug of ['no-such-home', 'test-unpublished']) {
      const { status, body } = await fx.get(`/api/public/homes/${slug}`);
      expect(status).toBe(404);
      expect(body.error.code).toBe('home_not_found');
    }
  });
});

describe('GET /api/public/homes/{slug}/flex-options', () => {
  it('lists the accepted tiers', async () => {
    const { body } = await fx.get('/api/public/homes/test-open/flex-options');
    expect(body).toEqual({ home_slug: 'test-open', available_tiers: [{ committed_nights: 180 }, { committed_nights: 365 }], eligible_for_flexible_stays: true, minimum_nightly_stay: 1 });
  });

  it('returns an empty list and eligible false for an apartment that opts out', async () => {
    const { body } = await fx.get('/api/public/homes/test-nophotos/flex-options');
    expect(body.eligible_for_flexible_stays).toBe(false);
    expect(body.available_tiers).toEqual([]);
  });

  it('answers 404 for an unknown slug', async () => {
    expect((await fx.get('/api/public/homes/nope/flex-options')).status).toBe(404);
  });
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

describe('the same request through GET and the MCP client', () => {
  it('gives the same JSON for each of the three tools', async () => {
    const client = await fx.mcp();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['get_apartment_tool', { slug: 'test-blocked', start_date: d(45), end_date: d(60) }, `/api/public/homes/test-blocked?check_in=${d(45)}&check_out=${d(60)}`],
      ['get_flex_options_tool', { home_slug: 'test-minstay' }, '/api/public/homes/test-minstay/flex-options'],
      ['get_quote_tool', { home_slug: 'test-open', start_date: d(3), end_date: d(9), cats: 1 }, `/api/public/homes/test-open/quote?check_in=${d(3)}&check_out=${d(9)}&cats=1`],
    ];
    for (const [name, args, path] of cases) {
      const viaMcp = await client.callTool({ name, arguments: args });
      const viaGet = await fx.get(path);
      expect(viaMcp.isError).toBeFalsy();
      expect(viaMcp.structuredContent).toEqual(viaGet.body);
    }
  });

  it('returns errors of the error table as isError results', async () => {
    const client = await fx.mcp();
    const res = await client.callTool({ name: 'get_quote_tool', arguments: { home_slug: 'test-open', start_date: d(3), end_date: 'indefinite', committed_nights: 270 } });
    expect(res.isError).toBe(true);
    expect(JSON.parse((res.content as any)[0].text).error.code).toBe('tier_not_offered');
    const missing = await client.callTool({ name: 'get_apartment_tool', arguments: { slug: 'nope' } });
    expect(JSON.parse((missing.content as any)[0].text).error.code).toBe('home_not_found');
  });

  it('embeds the hero photo as image content when include_hero_image is true', async () => {
    const client = await fx.mcp();
    const res = await client.callTool({ name: 'get_apartment_tool', arguments: { slug: 'test-open', include_hero_image: true } });
    const images = (res.content as any[]).filter((c) => c.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0].mimeType).toBe('image/jpeg');
    expect(images[0]._meta).toEqual({ home_slug: 'test-open' });
    expect(Buffer.from(images[0].data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const plain = await client.callTool({ name: 'get_apartment_tool', arguments: { slug: 'test-open' } });
    expect((plain.content as any[]).filter((c) => c.type === 'image')).toHaveLength(0);
  });
});

describe('one home, one stay, one answer', () => {
  it('agrees between the engine, the quote and the apartment read, and shows one price, for generated homes', async () => {
    const homes = await fx.mongo.collections.homes.find({ published: true, deleted_at: null, _id: { $not: /^test-/ } }).limit(40).toArray();
    let checked = 0;
    for (const [i, h] of homes.entries()) {
      const start = d((i * 7) % 90);
      const end = d((i * 7) % 90 + [3, 12, 30, 45, 75][i % 5]);
      const engine = checkStay(h, { kind: 'fixed', start_date: start, end_date: end }, { cats: 0, dogs: 0 }, today);
      const quote = await fx.get(`/api/public/homes/${h.slug}/quote?check_in=${start}&check_out=${end}`);
      const detail = await fx.get(`/api/public/homes/${h.slug}?check_in=${start}&check_out=${end}`);
      expect(quote.body.available).toBe(engine.available);
      expect(detail.body.requested_stay.available).toBe(engine.available);
      if (engine.available) {
        checked += 1;
        expect(detail.body.display_price_with_discount).toBe(quote.body.display_price_with_discount);
        expect(detail.body.display_price_label).toBe(quote.body.display_price_label);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
