/**
 * The shared filter arguments (docs/contract.md, "Filters") and their Elasticsearch clauses,
 * built by a pure function. Every clause is a filter (no scoring): counts and pages stay exact.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { FromSchema } from 'json-schema-to-ts';
import { badRequest } from '../../kernel/errors';
import type { ResolvedLocation } from './location';
import { DEFAULT_RADIUS_MILES, MAX_RADIUS_MILES } from '../../kernel/limits/radius';
import { SEARCHABLE } from '../../kernel/store/searchable';
import { FLAG_FIELDS } from '../../kernel/store/flag-fields';

export { FLAG_FIELDS };

const flag = (description: string) => ({ type: 'boolean', description }) as const;

const placeSlug = { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 200 } as const;

export const sharedFilterProperties = {
  neighborhood: {
    ...placeSlug,
    description: 'Only homes of this neighborhood: its slug, as GET /api/public/suggest and get_market_info_tool give it.',
  },
  building: {
    ...placeSlug,
    description: "Only homes of this building: its slug, as GET /api/public/suggest and search_properties_tool's cards give it.",
  },
  min_bedrooms: { type: 'integer', minimum: 0, maximum: 20, description: 'Minimum bedrooms; 0 = studio.' },
  max_bedrooms: { type: 'integer', minimum: 0, maximum: 20, description: 'Maximum bedrooms.' },
  min_bathrooms: { type: 'number', minimum: 0, maximum: 20, description: 'Minimum bathrooms.' },
  pets: flag('True: only places allowing pets in general.'),
  cats: flag('True: only cat-friendly places.'),
  dogs: flag('True: only dog-friendly places.'),
  parking: flag('True: parking available (the authoritative has_parking, not the amenity text).'),
  pool: flag('True: the building has a pool.'),
  gym: flag('True: the building has a fitness center.'),
  in_unit_laundry: flag('True: in-unit washer/dryer.'),
  air_conditioned: flag('True: air-conditioned.'),
  balcony: flag('True: has a balcony.'),
  elevator: flag('True: the building has an elevator.'),
  first_floor_unit: flag('True: ground-floor apartments only.'),
  self_check_in: flag('True: self check-in.'),
  deals_only: flag('True: only apartments carrying an active special offer; composable with every other filter.'),
  near_latitude: { type: 'number', minimum: -90, maximum: 90, description: 'Point of interest (a building, employer, campus); with near_longitude.' },
  near_longitude: { type: 'number', minimum: -180, maximum: 180, description: 'Point of interest; with near_latitude.' },
  near_radius_miles: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: MAX_RADIUS_MILES,
    description: `Straight-line radius around the point, in miles; default ${DEFAULT_RADIUS_MILES}. Only matches inside it are returned and counted.`,
  },
} as const;

export type SharedFilters = FromSchema<{ type: 'object'; properties: typeof sharedFilterProperties; additionalProperties: false }>;

/** The point and radius of a proximity search, or null; both coordinates or neither (docs/contract.md, "Location" rule 3: they go together). */
export function nearPoint(f: SharedFilters): { lat: number; lon: number; miles: number } | null {
  if ((f.near_latitude === undefined) !== (f.near_longitude === undefined)) {
    throw badRequest('invalid_parameters', 'near_latitude and near_longitude are used together: pass both, or neither.');
  }
  if (f.near_latitude === undefined || f.near_longitude === undefined) {
    if (f.near_radius_miles !== undefined) throw badRequest('invalid_parameters', 'near_radius_miles needs near_latitude and near_longitude.');
    return null;
  }
  return { lat: f.near_latitude, lon: f.near_longitude, miles: f.near_radius_miles ?? DEFAULT_RADIUS_MILES };
}

/**
 * Homes search can return in this place (anywhere, when a viewport stands in for it): published,
 * undeleted, with a stay that can start. `bookableImplied`: the search's stay clauses already admit
 * only bookable homes (./stay-clauses.ts, impliesBookable), so `bookable` would be one more clause
 * to intersect for nothing.
 */
export function locationClauses(loc: ResolvedLocation | null, bookableImplied = false): estypes.QueryDslQueryContainer[] {
  const bookable: estypes.QueryDslQueryContainer[] = bookableImplied ? [] : [SEARCHABLE];
  if (loc === null) return bookable;
  return [...bookable, loc.city ? { term: { city_slug: loc.city.slug } } : { term: { market_slug: loc.market.slug } }];
}

export function filterClauses(f: SharedFilters): estypes.QueryDslQueryContainer[] {
  const clauses: estypes.QueryDslQueryContainer[] = [];
  if (f.neighborhood !== undefined) clauses.push({ term: { neighborhood_slug: f.neighborhood } });
  if (f.building !== undefined) clauses.push({ term: { property_slug: f.building } });
  if (f.min_bedrooms !== undefined || f.max_bedrooms !== undefined) {
    clauses.push({ range: { bedrooms: { gte: f.min_bedrooms, lte: f.max_bedrooms } } });
  }
  if (f.min_bathrooms !== undefined) clauses.push({ range: { bathrooms: { gte: f.min_bathrooms } } });
  for (const [arg, field] of Object.entries(FLAG_FIELDS)) {
    if (f[arg as keyof typeof FLAG_FIELDS] === true) clauses.push({ term: { [field]: true } });
  }
  const near = nearPoint(f);
  // A true circle (docs/contract.md, "Location" rule 4): geo_distance, not a bounding box.
  if (near) clauses.push({ geo_distance: { distance: `${near.miles}mi`, location: { lat: near.lat, lon: near.lon } } });
  return clauses;
}
