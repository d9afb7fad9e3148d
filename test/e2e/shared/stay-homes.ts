/**
 * The handcrafted homes of the stay-tool tests (get_apartment_tool, get_flex_options_tool, get_quote_tool):
 * a generated world of 120 homes plus homes and buildings whose every rule is known, each slug `test-*`.
 * Each test file starts its own service with `startStayFixture()`.
 */
import { startFixture, type Fixture } from '../../support/fixture';
import { makeHome, openRange, closedRange } from '../../support/arbitraries';
import { addDays } from '../../../services/kernel/engine/dates';
import type { HomeRecord, PropertyRecord } from '../../../services/kernel/inventory/records';

function home(d: (n: number) => string, slug: string, property: PropertyRecord, overrides: Partial<HomeRecord>): HomeRecord {
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

export async function startStayFixture(): Promise<Fixture> {
  const fx = await startFixture({ homes: 120 });
  const d = (n: number): string => addDays(fx.today, n);
  const base = (await fx.mongo.collections.properties.findOne({}))!;
  const rated: PropertyRecord = {
    ...base,
    _id: 'test-prop-rated',
    slug: 'test-prop-rated',
    rating: { average: 4.6, count: 31 },
    scores: {
      walk_score: 88,
      walk_score_description: "Walker's Paradise",
      transit_score: 70,
      transit_score_description: 'Excellent Transit',
      bike_score: 60,
      bike_score_description: 'Bikeable',
    },
    photos: [{ id: 'ph-001' }, { id: 'ph-002' }, { id: 'ph-003' }, { id: 'ph-004' }, { id: 'ph-005' }],
  };
  const unrated: PropertyRecord = { ...base, _id: 'test-prop-unrated', slug: 'test-prop-unrated', rating: null, scores: {}, photos: [] };
  const noDogs: PropertyRecord = { ...base, _id: 'test-prop-nodogs', slug: 'test-prop-nodogs', allows_cats: true, allows_dogs: false };
  await fx.mongo.collections.properties.insertMany([rated, unrated, noDogs]);
  await fx.mongo.collections.homes.insertMany([
    home(d, 'test-open', rated, { photos: [{ id: 'ph-010' }, { id: 'ph-011' }, { id: 'ph-012' }] }),
    home(d, 'test-nophotos', unrated, { photos: [], flex_eligible: false, flex_tiers: [] }),
    home(d, 'test-blocked', rated, {
      cats_allowed: true,
      dogs_allowed: false,
      calendar: [openRange(d(-30), d(20)), closedRange(d(20), d(40), 'reserved'), openRange(d(40), d(400))],
    }),
    home(d, 'test-minstay', rated, {
      minimum_nightly_stay: 30,
      flex_tiers: [
        { committed_nights: 180, monthly_rate_cents: 280_000 },
        { committed_nights: 270, monthly_rate_cents: 270_000 },
      ],
      must_vacate_by: d(200),
    }),
    home(d, 'test-unpublished', rated, { published: false }),
    home(d, 'test-building-nodogs', { ...rated, _id: 'test-prop-nodogs' }, { cats_allowed: true, dogs_allowed: true }),
  ]);
  return fx;
}
