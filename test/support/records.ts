/** Small canonical records shared by tests that need a building and a market around a home. */
import type { MarketRecord, PropertyRecord } from '../../services/kernel/inventory/records';

export function makeProperty(overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  return {
    _id: 'prop-000001',
    slug: 'maple-court',
    name: 'Maple Court',
    market_slug: 'austin',
    city_slug: 'austin',
    neighborhood_id: 'nbh-0001',
    address: '100 Maple St',
    city: 'Austin',
    state: 'TX',
    latitude: 30.27,
    longitude: -97.74,
    amenities: ['Pool', 'Fitness center'],
    has_pool: true,
    has_gym: true,
    has_elevator: false,
    description: 'A building.',
    photos: [{ id: 'ph-001' }],
    rating: { average: 4.4, count: 12 },
    scores: {},
    allows_cats: true,
    allows_dogs: true,
    created_at: new Date('2026-01-01T00:00:00Z'),
    updated_at: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}

export function makeMarket(overrides: Partial<MarketRecord> = {}): MarketRecord {
  return {
    _id: 'austin',
    slug: 'austin',
    name: 'Austin',
    state: 'TX',
    latitude: 30.27,
    longitude: -97.74,
    cities: [{ slug: 'austin', name: 'Austin', state: 'TX', latitude: 30.27, longitude: -97.74 }],
    neighborhoods: [{ id: 'nbh-0001', slug: 'downtown', name: 'Downtown', city_slug: 'austin', description: 'Central.' }],
    updated_at: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}
