/** Building and unit features, ratings, scores, pets and photos of a 3,000-home demo run. */
import { photoPool } from '../../../stack/demo/photos';
import { materialize, share, type Materialized } from './fixture';

let inv: Materialized;
beforeAll(() => {
  inv = materialize();
});

describe('buildings', () => {
  it('leaves about 20% unrated and rates the rest 3.0-5.0 (one decimal) from 3-400 reviews, in every guest-rating bucket', () => {
    expect(share(inv.properties, (p) => p.rating === null)).toBeCloseTo(0.2, 1);
    const rated = inv.properties.flatMap((p) => (p.rating ? [p.rating] : []));
    for (const r of rated) {
      expect(r.average >= 3 && r.average <= 5 && Math.round(r.average * 10) === r.average * 10).toBe(true);
      expect(r.count >= 3 && r.count <= 400).toBe(true);
    }
    const buckets = new Set(rated.map((r) => (r.average >= 4.5 ? 'EXCELLENT' : r.average >= 4 ? 'VERY_GOOD' : r.average >= 3.5 ? 'GOOD' : 'below')));
    expect(buckets.size).toBe(4);
  });

  it('has no location scores on about 25% of buildings, some with only a walk score, scores with descriptions', () => {
    expect(share(inv.properties, (p) => Object.keys(p.scores).length === 0)).toBeCloseTo(0.25, 1);
    expect(inv.properties.some((p) => p.scores.walk_score !== undefined && p.scores.transit_score === undefined)).toBe(true);
    for (const { scores: s } of inv.properties) {
      expect(s.walk_score === undefined).toBe(s.walk_score_description === undefined);
      expect(s.transit_score === undefined).toBe(s.transit_score_description === undefined);
      expect(s.bike_score === undefined).toBe(s.bike_score_description === undefined);
    }
  });

  it('lists pool, gym and elevator amenities exactly when the flags say so', () => {
    for (const p of inv.properties) {
      expect(p.amenities.some((a) => /pool/i.test(a))).toBe(p.has_pool);
      expect(p.amenities.some((a) => /fitness|gym/i.test(a))).toBe(p.has_gym);
      expect(p.amenities.includes('Elevator')).toBe(p.has_elevator);
      expect(p.description.length).toBeGreaterThan(100);
    }
    for (const flag of ['has_pool', 'has_gym', 'has_elevator', 'allows_cats', 'allows_dogs'] as const) {
      expect(share(inv.properties, (p) => p[flag])).toBeGreaterThan(0.1);
      expect(share(inv.properties, (p) => p[flag])).toBeLessThan(0.95);
    }
  });
});

describe('homes', () => {
  it('spreads bedrooms 0-4 (mostly 1-2) with matching bathrooms and size', () => {
    const beds = [0, 1, 2, 3, 4].map((b) => share(inv.homes, (h) => h.bedrooms === b));
    expect(beds.every((s) => s > 0)).toBe(true);
    expect(beds[1] + beds[2]).toBeGreaterThan(0.55);
    for (const h of inv.homes) {
      expect(h.bathrooms >= 1 && h.bathrooms <= 3).toBe(true);
      if (h.bedrooms === 0) expect(h.bathrooms).toBe(1);
      expect(h.sqft).toBeGreaterThanOrEqual(380 + h.bedrooms * 150);
    }
  });

  it('puts about 15% of units on the ground floor', () => {
    expect(share(inv.homes, (h) => h.floor === 1)).toBeCloseTo(0.15, 1);
  });

  it('allows a pet only where the building does, and some homes are stricter than their building', () => {
    for (const h of inv.homes) {
      const p = inv.propertyById.get(h.property_id)!;
      if (h.cats_allowed) expect(p.allows_cats).toBe(true);
      if (h.dogs_allowed) expect(p.allows_dogs).toBe(true);
    }
    expect(inv.homes.some((h) => !h.dogs_allowed && inv.propertyById.get(h.property_id)!.allows_dogs)).toBe(true);
    expect(inv.homes.some((h) => h.cats_allowed && !h.dogs_allowed)).toBe(true);
    expect(inv.homes.some((h) => !h.cats_allowed && !h.dogs_allowed)).toBe(true);
  });

  it('has every laundry type and mixed unit flags, with unit amenities that agree with them', () => {
    expect(new Set(inv.homes.map((h) => h.laundry_type))).toEqual(new Set(['In Unit', 'On-Site Facility', null]));
    for (const flag of ['has_parking', 'air_conditioned', 'has_balcony', 'self_check_in'] as const) {
      expect(share(inv.homes, (h) => h[flag])).toBeGreaterThan(0.05);
      expect(share(inv.homes, (h) => h[flag])).toBeLessThan(0.97);
    }
    for (const h of inv.homes) {
      expect(h.amenities.includes('Washer/dryer in unit')).toBe(h.laundry_type === 'In Unit');
      expect(h.amenities.includes('Air conditioning')).toBe(h.air_conditioned);
      expect(h.amenities.includes('Assigned parking space')).toBe(h.has_parking);
    }
  });

  it('has homes without parking in buildings that list a garage (has_parking is authoritative)', () => {
    expect(inv.homes.some((h) => !h.has_parking && inv.propertyById.get(h.property_id)!.amenities.some((a) => /parking/i.test(a)))).toBe(true);
  });
});

describe('photos', () => {
  const pool = new Set(photoPool());

  it('references only pool photos, 2-5 per building and 0-6 per unit', () => {
    for (const p of inv.properties) {
      expect(p.photos.length === 0 || (p.photos.length >= 2 && p.photos.length <= 5)).toBe(true);
      expect(p.photos.every((ph) => pool.has(ph.id))).toBe(true);
    }
    for (const h of inv.homes) {
      expect(h.photos.length).toBeLessThanOrEqual(6);
      expect(h.photos.every((ph) => pool.has(ph.id))).toBe(true);
      expect(new Set(h.photos.map((ph) => ph.id)).size).toBe(h.photos.length);
    }
  });

  it('leaves about 5% of homes with no photo at all, their building having none either', () => {
    const bare = inv.homes.filter((h) => h.photos.length === 0 && inv.propertyById.get(h.property_id)!.photos.length === 0);
    expect(bare.length / inv.homes.length).toBeGreaterThan(0.02);
    expect(bare.length / inv.homes.length).toBeLessThan(0.09);
    // Homes of a photo-less building never have unit photos of their own.
    expect(inv.homes.every((h) => inv.propertyById.get(h.property_id)!.photos.length > 0 || h.photos.length === 0)).toBe(true);
    // And some homes show only their building's photos (media source `property`).
    expect(inv.homes.some((h) => h.photos.length === 0 && inv.propertyById.get(h.property_id)!.photos.length > 0)).toBe(true);
  });
});
