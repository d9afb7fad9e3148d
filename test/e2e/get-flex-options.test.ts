/**
 * get_flex_options_tool (GET /api/public/homes/{slug}/flex-options) through real HTTP on real servers,
 * for handcrafted homes whose every rule is known (test/e2e/shared/stay-homes.ts).
 */
import type { Fixture } from '../support/fixture';
import { startStayFixture } from './shared/stay-homes';

let fx: Fixture;

beforeAll(async () => {
  fx = await startStayFixture();
});

afterAll(async () => {
  await fx?.close();
});

describe('GET /api/public/homes/{slug}/flex-options', () => {
  it('lists the accepted tiers', async () => {
    const { body } = await fx.get('/api/public/homes/test-open/flex-options');
    expect(body).toEqual({
      home_slug: 'test-open',
      available_tiers: [{ committed_nights: 180 }, { committed_nights: 365 }],
      eligible_for_flexible_stays: true,
      minimum_nightly_stay: 1,
    });
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
