/** The `property` block of the apartment read: rating and scores omitted when absent. */
import type { FromSchema } from 'json-schema-to-ts';
import type { PropertyRecord } from '../kernel/inventory/records';
import type { propertyBlockSchema } from '../contracts/output-pieces';

export type PropertyBlock = FromSchema<typeof propertyBlockSchema>;

export function propertyBlock(p: PropertyRecord): PropertyBlock {
  const s = p.scores;
  return {
    id: p._id,
    slug: p.slug,
    name: p.name,
    address: p.address,
    city: p.city,
    state: p.state,
    latitude: p.latitude,
    longitude: p.longitude,
    amenities: p.amenities,
    description: p.description,
    ...(p.rating ? { member_rating: { average: p.rating.average, count: p.rating.count } } : {}),
    ...(s.walk_score !== undefined ? { walk_score: s.walk_score, walk_score_description: s.walk_score_description } : {}),
    ...(s.transit_score !== undefined ? { transit_score: s.transit_score, transit_score_description: s.transit_score_description } : {}),
    ...(s.bike_score !== undefined ? { bike_score: s.bike_score, bike_score_description: s.bike_score_description } : {}),
  };
}
