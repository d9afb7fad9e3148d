/**
 * get_apartment_tool (GET /api/public/homes/{slug}) through real HTTP on real servers, for handcrafted
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

describe('GET /api/public/homes/{slug}', () => {
  it('returns every field of the detail table for an undated read', async () => {
    const { status, body } = await fx.get('/api/public/homes/test-open');
    expect(status).toBe(200);
    for (const key of [
      'slug',
      'bedrooms',
      'photos',
      'display_price_with_discount',
      'display_price_label',
      'display_price_without_discount',
      'is_price_monthly',
      'is_price_nightly',
      'duration_label',
      'price_note',
      'property',
      'has_parking',
      'pet_policy',
      'laundry_type',
      'media',
      'widget_hero_image_url',
      'reservation_link',
      'availability',
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
