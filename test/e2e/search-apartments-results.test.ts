/**
 * search_apartments_tool (GET /api/public/search): sorts and pages (rule 5, "Limits"), the result fields
 * and the embedded hero photos (rule 6) (docs/contract.md, "search_apartments_tool"), over real HTTP and the SDK's MCP client on a generated world (test/e2e/shared/search-apartments.ts).
 * Expected homes come from the naive model (the stay engine over the records).
 */
import { addDays } from '../../services/kernel/engine/dates';
import { displayPrice } from '../../services/kernel/engine/pricing';
import { offeredTiers } from '../../services/kernel/engine/flex';
import type { Fixture } from '../support/fixture';
import { expectedResults, type World } from '../support/search-model';
import { searchCalls, startSearchWorld, type Home } from './shared/search-apartments';

let fx: Fixture;
let world: World;
let market: string;
const d = (n: number): string => addDays(fx.today, n);

beforeAll(async () => {
  ({ fx, world, market } = await startSearchWorld());
}, 180_000);

afterAll(async () => {
  await fx?.close();
});

const { get, call, allHomes } = searchCalls(() => fx);

describe('sorts and pages (rule 5, Limits)', () => {
  it('rating_desc puts unrated buildings last', async () => {
    const homes = await allHomes({ market, sort_by: 'rating_desc' });
    const firstUnrated = homes.findIndex((h) => h.property === undefined);
    expect(firstUnrated).toBeGreaterThan(0);
    expect(homes.slice(firstUnrated).every((h) => h.property === undefined)).toBe(true);
    const ratings = homes.slice(0, firstUnrated).map((h) => h.property.member_rating.average);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
  });

  it('pages of 25 by default, at most 40, 1-indexed; past the last page an empty page with the totals', async () => {
    const first = (await get(`market=${market}`)).body;
    expect(first).toMatchObject({ page: 1, per_page: 25, total_pages: Math.ceil(first.total_count / 25) });
    expect(first.homes).toHaveLength(Math.min(25, first.total_count));
    const big = (await get(`market=${market}&per_page=100`)).body;
    expect(big.per_page).toBe(40);
    expect(big.homes).toHaveLength(Math.min(40, big.total_count));
    const past = (await get(`market=${market}&page=${first.total_pages + 1}`)).body;
    expect(past).toMatchObject({ total_count: first.total_count, count: 0, homes: [] });
    expect((await get(`market=${market}&page=0`)).status).toBe(400);
    expect((await get(`market=${market}&page=2501`)).status).toBe(400);
  });
});

describe('result fields (the contract: search_apartments_tool)', () => {
  it('one-entry media with hero and widget variants, Flex tiers for eligible homes, the rating only when rated', async () => {
    const homes = await allHomes({ market, start_date: d(30), end_date: d(90) });
    const byId = new Map(world.homes.map((m) => [m.home.slug, m]));
    let rated = 0;
    let photoless = 0;
    for (const h of homes) {
      const { home, property } = byId.get(h.slug)!;
      const hero = home.photos[0] ? { id: home.photos[0].id, source: 'unit' } : property.photos[0] ? { id: property.photos[0].id, source: 'property' } : null;
      if (hero) {
        expect(h.media).toEqual([{ url: h.hero_image_url, widget_url: h.widget_hero_image_url, type: 'photo', source: hero.source, position: 0 }]);
        expect(h.hero_image_url).toMatch(new RegExp(`/media/${hero.id}\\.jpg$`));
        expect(h.widget_hero_image_url).toMatch(new RegExp(`/media/${hero.id}-800\\.jpg$`));
      } else {
        photoless += 1;
        expect(h.media).toEqual([]);
        expect(h.hero_image_url).toBeUndefined();
        expect(h.widget_hero_image_url).toBeUndefined();
      }
      const tiers = offeredTiers(home);
      expect(h.eligible_for_flex).toBe(tiers.length > 0);
      if (tiers.length > 0) {
        expect(h.flex_options).toEqual(
          tiers.map((t) => {
            const p = displayPrice(home, { kind: 'flex', start_date: d(30), committed_nights: t.committed_nights });
            return {
              committed_nights: t.committed_nights,
              display_price_with_discount: p.display_price_with_discount,
              display_price_label: p.display_price_label,
            };
          }),
        );
      } else expect(h.flex_options).toBeUndefined();
      if (property.rating) {
        rated += 1;
        expect(h.property).toEqual({ member_rating: { average: property.rating.average, count: property.rating.count } });
      } else expect(h.property).toBeUndefined();
      expect(h.price_note).toBe('Includes all fees except taxes.');
      expect(h).toMatchObject({ is_price_monthly: true, is_price_nightly: false, duration_label: '/mo' });
    }
    expect(rated).toBeGreaterThan(0);
    expect(rated).toBeLessThan(homes.length);
    void photoless;
  });

  it('flex_search_url appears exactly when a result on the page is Flex-eligible', async () => {
    const withFlex = (await get(`market=${market}&check_in=${d(14)}&check_out=indefinite`)).body;
    expect(withFlex.flex_search_url).toContain(`location=${market}`);
    expect(withFlex.flex_search_url).toContain('end_date=indefinite');
    // A building's homes of one bedroom count, none of them Flex-eligible: a page without Flex.
    const lone = world.homes.find((m) => {
      const args = {
        market: m.market.slug,
        near_latitude: m.property.latitude,
        near_longitude: m.property.longitude,
        near_radius_miles: 0.01,
        min_bedrooms: m.home.bedrooms,
        max_bedrooms: m.home.bedrooms,
      };
      const found = expectedResults(world, args);
      return found.length > 0 && found.every((r) => offeredTiers(r.m.home).length === 0);
    })!;
    const q = `market=${lone.market.slug}&near_latitude=${lone.property.latitude}&near_longitude=${lone.property.longitude}&near_radius_miles=0.01&bedrooms=${lone.home.bedrooms}&max_bedrooms=${lone.home.bedrooms}`;
    const without = (await get(q)).body;
    expect(without.total_count).toBeGreaterThan(0);
    expect(without.flex_search_url).toBeUndefined();
  });
});

describe('embedded hero photos (rule 6)', () => {
  it('up to 5 of the page as image content with _meta.home_slug, in page order; none with include_hero_images false', async () => {
    for (const per_page of [3, 40]) {
      const res = await call('search_apartments_tool', { market, per_page });
      const homes = (res.structuredContent as Home).homes as Home[];
      const images = (res.content as Array<{ type: string; data?: string; mimeType?: string; _meta?: { home_slug: string } }>).filter(
        (c) => c.type === 'image',
      );
      const withPhoto = homes.filter((h) => h.media.length > 0).slice(0, 5);
      expect(images.map((i) => i._meta?.home_slug)).toEqual(withPhoto.map((h) => h.slug));
      expect(images.length).toBeLessThanOrEqual(5);
      for (const img of images) {
        expect(img.mimeType).toBe('image/jpeg');
        // Small enough for agent clients (MCP hosts cap a result near 1 MiB): the 800 px variant, well under 100 KB each.
        expect(Buffer.from(img.data!, 'base64').length).toBeLessThan(100_000);
      }
    }
    const off = await call('search_apartments_tool', { market, include_hero_images: false });
    expect((off.content as Array<{ type: string }>).filter((c) => c.type === 'image')).toEqual([]);
  });
});
