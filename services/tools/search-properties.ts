/** search_properties_tool — tool server only (docs/contract.md, "search_properties_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import { committedNightsSchema, endDateSchema, isoDateSchema, priceLimitSchema, ratingThresholdSchema } from '../kernel/inventory/schema-pieces';
import { BUILDING_PAGE, BUILDING_WINDOW } from '../kernel/limits/pages';
import { DEFAULT_RADIUS_MILES } from '../kernel/limits/radius';
import { BUILDING_SORTS, type BuildingQuery } from '../search/buildings/building-query';
import { sharedFilterProperties } from '../search/shared/filters';
import { locationProperties, resolveLocation } from '../search/shared/location';
import { answerBuildingSearch } from '../search/buildings/building-search';
import { PricingBudget } from '../search/shared/pricing-budget';
import { propertiesOutputSchema } from '../contracts/properties-output';
import { sharedFiltersOf } from './search-args';
import { NO_PLACE } from './search-common';
import { GUEST_RATING_BUCKETS_TEXT, GUEST_RATING_NAMES, RATING_RANGE_TEXT, ratingThreshold } from '../kernel/limits/rating';
import { readStay } from '../stays/read-stay';
import { BUILDING_STAY_POLICY } from '../stays/stay-policies';
import { defineTool, READ_ONLY } from './tool';
import { badRequest } from '../kernel/errors';
import { qProperty, readQ, speculativePlan } from '../search/shared/read-q';
import { POLYGON_MAX_VERTICES, polygonProperties, readPolygon } from '../search/shared/polygon';

const inputSchema = {
  type: 'object',
  properties: {
    ...locationProperties,
    ...qProperty,
    ...sharedFilterProperties,
    ...polygonProperties,
    start_date: {
      ...isoDateSchema,
      description: `Move-in date, YYYY-MM-DD, at most ${BUILDING_STAY_POLICY.startAhead.days} days ahead. Omit to browse every upcoming unit.`,
    },
    end_date: { ...endDateSchema, description: 'Move-out date (YYYY-MM-DD), or "indefinite" for a Flex stay (then committed_nights is required).' },
    committed_nights: {
      ...committedNightsSchema,
      description: 'Flex tier (nights committed) for end_date "indefinite"; ignored for fixed stays.',
    },
    min_price: { ...priceLimitSchema, description: "Monthly USD floor on each unit's final, discounted price." },
    max_price: { ...priceLimitSchema, description: "Monthly USD ceiling on each unit's final, discounted price." },
    min_rating: { ...ratingThresholdSchema, description: `Lowest building guest rating (${RATING_RANGE_TEXT}); unrated buildings are left out.` },
    guest_rating: {
      anyOf: [{ type: 'string', enum: GUEST_RATING_NAMES }, { ...ratingThresholdSchema }],
      description: `${GUEST_RATING_BUCKETS_TEXT}, or a number ${RATING_RANGE_TEXT}; with min_rating the highest threshold wins.`,
    },
    min_square_footage: { type: 'integer', minimum: 0, maximum: 100_000, description: 'Smallest square footage of a matching unit.' },
    near_label: { type: 'string', maxLength: 200, description: 'Display label of the near_* point; never filters.' },
    sort_by: {
      type: 'string',
      enum: BUILDING_SORTS,
      description:
        'recommended (default: buildings with a special offer, then the best rated), price_asc, price_desc (by from_price), rating_desc, distance (needs near_latitude/near_longitude, else recommended).',
    },
    page: {
      type: 'integer',
      minimum: 1,
      maximum: BUILDING_WINDOW,
      default: 1,
      description: '1-indexed page of buildings; fetch later pages while page <= total_pages.',
    },
    per_page: {
      type: 'integer',
      minimum: 1,
      default: BUILDING_PAGE.default,
      description: `Buildings per page; default ${BUILDING_PAGE.default}, at most ${BUILDING_PAGE.max}.`,
    },
  },
  additionalProperties: false,
} as const;

export type BuildingArgs = FromSchema<typeof inputSchema>;
type Output = FromSchema<typeof propertiesOutputSchema>;

export async function readBuildingQuery(deps: Deps, args: BuildingArgs, today: IsoDate, signal?: AbortSignal): Promise<BuildingQuery> {
  const polygon = readPolygon(args.polygon);
  const named = args.market !== undefined || args.scope !== undefined;
  if (!named && polygon === null) throw badRequest('invalid_parameters', NO_PLACE);
  const stay = readStay(args, today, BUILDING_STAY_POLICY);
  const filters = sharedFiltersOf(args);
  const plan = readQ(args.q);
  const location = named ? await resolveLocation(deps, args) : null;
  const { text, settled } = await speculativePlan(deps, plan);
  return {
    location,
    polygon,
    filters,
    stay,
    monthly: { min: args.min_price ?? null, max: args.max_price ?? null },
    minRating: ratingThreshold(args),
    minSqft: args.min_square_footage ?? null,
    sort: args.sort_by ?? 'recommended',
    text,
    ...(settled ? { textSettled: settled } : {}),
    budget: new PricingBudget(deps.config.searchMaxPriced, signal),
  };
}

export const searchPropertiesTool = defineTool<BuildingArgs, Output>({
  name: 'search_properties_tool',
  title: 'Search buildings',
  description:
    'Searches by building instead of by apartment: one card per building with its matching units. Use it when the ' +
    'guest cares about the building (amenities, rating, location) or wants to see what sizes a building offers. ' +
    'Pass market (a city or market slug from list_markets_tool) or scope, or a polygon (up to ' +
    `${POLYGON_MAX_VERTICES} vertices {latitude, longitude}, a shape drawn on a map: only buildings inside it, with market or in its place); optionally start_date and end_date ` +
    '(or "indefinite" with committed_nights); without start_date every upcoming unit is browsed. Filters as in ' +
    "search_apartments_tool, with min/max_price as monthly limits on each unit's final price, min_square_footage, " +
    'and guest_rating as a bucket or a number. Each card has from_price (the cheapest matching unit), bed_groups ' +
    '(cheapest first), up to three units per bedroom count (open them with get_apartment_tool), units open at other ' +
    'dates, the offer saving and distance_miles for a near_latitude/near_longitude search (a true circle, default ' +
    `${DEFAULT_RADIUS_MILES} miles). sort_by recommended (default), price_asc, price_desc, rating_desc, distance. Pages of per_page ` +
    `buildings (default ${BUILDING_PAGE.default}, max ${BUILDING_PAGE.max}) with total_properties and total_homes; a thin search adds additional_properties ` +
    'found by relaxing it, named by additional_type.',
  inputSchema,
  outputSchema: propertiesOutputSchema,
  annotations: READ_ONLY,
  // Rate-limit weight: a building search sends several exact searches, more when a thin search is relaxed.
  cost: 4,
  async handler(args, { deps, today, request }) {
    const q = await readBuildingQuery(deps, args, today, request.signal);
    const page = args.page ?? 1;
    const perPage = Math.min(args.per_page ?? BUILDING_PAGE.default, BUILDING_PAGE.max);
    const offset = (page - 1) * perPage;
    const { found, relaxed } = await answerBuildingSearch(deps, q, { offset, size: perPage, relax: page === 1 }, today, request.signal);
    const city = q.location?.city;
    return {
      data: {
        market: q.location ? { slug: q.location.market.slug } : null,
        display_city: city ? { slug: city.slug, name: city.name, state: city.state } : null,
        properties: found.cards,
        page,
        per_page: perPage,
        total_pages: Math.ceil(found.totalProperties / perPage),
        total_properties: found.totalProperties,
        total_homes: found.totalHomes,
        omitted_properties: found.omitted,
        additional_properties: relaxed?.cards ?? [],
        additional_type: relaxed?.type ?? null,
      },
    };
  },
});
