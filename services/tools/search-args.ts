/**
 * The arguments search_apartments_tool and search_apartments_on_map share (docs/contract.md,
 * "Location", "Filters", "Dates", "search_apartments_tool") and their rules: dates (rule 1,
 * "Limits"), Flex tiers (rule 3), price_unit, the rating threshold (rule 4, kernel/limits/rating.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { PricingBudget } from '../search/shared/pricing-budget';
import type { Deps } from '../deps';
import { badRequest } from '../kernel/errors';
import type { IsoDate } from '../kernel/inventory/records';
import { committedNightsSchema, endDateSchema, isoDateSchema, priceLimitSchema, ratingThresholdSchema } from '../kernel/inventory/schema-pieces';
import { FLAG_FIELDS, sharedFilterProperties, type SharedFilters } from '../search/shared/filters';
import { locationProperties, type ResolvedLocation } from '../search/shared/location';
import { displayLimits, displayUnit, type PriceUnit, type SearchParams } from '../search/shared/search-params';
import type { StayDates } from '../stays/stay-dates';
import { APARTMENT_SORTS, type SearchSort } from '../search/shared/sorts';
import { qProperty, readQ, speculativePlan } from '../search/shared/read-q';
import { readStay } from '../stays/read-stay';
import { firstStayDates, readStayWindow, windowArgProperties } from '../stays/stay-window';
import { SEARCH_STAY_POLICY } from '../stays/stay-policies';
import { MAX_MOVE_IN_WINDOW_DAYS } from '../kernel/limits/stay-window';
import { GUEST_RATING_BUCKETS_TEXT, GUEST_RATING_NAMES, RATING_RANGE_TEXT, ratingThreshold } from '../kernel/limits/rating';

/** When to search a window of move-in dates, with an example (the tools' descriptions say it). */
export const WINDOW_USE =
  'When the guest\'s move-in is flexible ("sometime in February, for three months"), search a window instead of guessing a date: ' +
  `start_date (earliest move-in) and latest_start_date (latest, up to ${MAX_MOVE_IN_WINDOW_DAYS} days later) with nights (the stay's length), ` +
  'or end_date "indefinite" with committed_nights for a Flex tier; each apartment then carries stay {start_date, end_date, nights}, its cheapest ' +
  'start in the window (ties to the earliest), and its prices and home_url are for that stay. Example: ' +
  '{"market": "austin", "start_date": "2027-02-01", "latest_start_date": "2027-02-28", "nights": 90}. ';

/** When no sort_by is given: the cheapest first. */
export const DEFAULT_SEARCH_SORT: SearchSort = 'price_asc';

export const searchArgProperties = {
  ...locationProperties,
  ...qProperty,
  ...sharedFilterProperties,
  min_price: { ...priceLimitSchema, description: 'USD budget floor, compared with the all-in price for the dates (unit: price_unit).' },
  max_price: { ...priceLimitSchema, description: 'USD budget ceiling, compared with the all-in price for the dates (unit: price_unit).' },
  start_date: {
    ...isoDateSchema,
    description: `Move-in date, YYYY-MM-DD, at most ${SEARCH_STAY_POLICY.startAhead.days} days ahead. Omit for an undated search.`,
  },
  end_date: { ...endDateSchema, description: 'Move-out date (YYYY-MM-DD), or "indefinite" for a Flex stay. Needs start_date.' },
  committed_nights: {
    ...committedNightsSchema,
    description: 'Flex tier (nights committed), only with end_date "indefinite"; without it every apartment open to a Flex stay is listed.',
  },
  ...windowArgProperties,
  price_unit: {
    type: 'string',
    enum: ['per_night', 'per_month'],
    description: 'Unit of min_price/max_price; default per_night for stays under 30 nights, per_month otherwise.',
  },
  min_rating: { ...ratingThresholdSchema, description: `Lowest building guest rating (${RATING_RANGE_TEXT}); unrated buildings are left out.` },
  guest_rating: {
    type: 'string',
    enum: GUEST_RATING_NAMES,
    description: `${GUEST_RATING_BUCKETS_TEXT}; with min_rating the stricter applies; unrated buildings are left out.`,
  },
  near_label: { type: 'string', maxLength: 200, description: 'Display label of the near_* point (a building, employer, campus); never filters.' },
  sort_by: {
    type: 'string',
    enum: APARTMENT_SORTS,
    description:
      'price_asc (default), price_desc, availability (earliest move-in first), newest, rating_desc (unrated last), ' +
      'relevance (with q, and its default: the best matches of q first, ties cheapest first). ' +
      "With a window of move-in dates, prices and move-in are those of each apartment's chosen stay.",
  },
  facets: {
    type: 'boolean',
    description:
      'True: the answer also carries facets, the total_count this search would have with each boolean filter set, each bedroom count, ' +
      'each guest_rating bucket and each price bucket (all-in prices of the stay, in price_unit) instead of its own; default false. ' +
      'Not with latest_start_date (a window of move-in dates).',
  },
} as const;

export type SearchArgs = FromSchema<{ type: 'object'; properties: typeof searchArgProperties; additionalProperties: false }>;

/**
 * The shared filters of a search or overview, with the lower bounds not above the upper ones (a
 * reversed range is a mistake to say, not an empty answer to give).
 */
export function sharedFiltersOf(args: object): SharedFilters {
  const a = args as { min_price?: number; max_price?: number; min_bedrooms?: number; max_bedrooms?: number };
  if (a.min_price !== undefined && a.max_price !== undefined && a.min_price > a.max_price) {
    throw badRequest('invalid_parameters', `min_price ${a.min_price} is above max_price ${a.max_price}.`);
  }
  if (a.min_bedrooms !== undefined && a.max_bedrooms !== undefined && a.min_bedrooms > a.max_bedrooms) {
    throw badRequest('invalid_parameters', `min_bedrooms ${a.min_bedrooms} is above max_bedrooms ${a.max_bedrooms}.`);
  }
  const filters: Record<string, unknown> = {};
  for (const key of Object.keys(sharedFilterProperties)) {
    const value = (args as Record<string, unknown>)[key];
    if (value !== undefined) filters[key] = value;
  }
  return filters as SharedFilters;
}

/** The parameters of a search whose place `place` resolves (the map's may be none: its viewport stands in). */
export async function readSearchParamsIn<L extends ResolvedLocation | null>(
  deps: Deps,
  args: SearchArgs,
  today: IsoDate,
  place: () => Promise<L>,
  signal?: AbortSignal,
): Promise<SearchParams & { location: L }> {
  const window = readStayWindow(args, today, SEARCH_STAY_POLICY);
  // docs/decisions.md, "A window of move-in dates": facets count one stay's prices; a window's are each home's own.
  if (window && args.facets === true) {
    throw badRequest(
      'invalid_parameters',
      'facets is not available with latest_start_date (a window of move-in dates): search one stay (start_date, end_date) for facets.',
    );
  }
  const stay = window ? firstStayDates(window) : readStay(args, today, SEARCH_STAY_POLICY);
  const filters = sharedFiltersOf(args);
  const plan = readQ(args.q);
  if (args.sort_by === 'relevance' && plan === null) throw badRequest('invalid_parameters', 'sort_by relevance orders the matches of q: give q.');
  const shown = displayUnit(stay);
  const location = await place();
  const { text, settled } = await speculativePlan(deps, plan);
  return {
    location,
    filters,
    stay,
    price: displayLimits(args.min_price, args.max_price, args.price_unit ?? shown, shown),
    minRating: ratingThreshold(args),
    window,
    sort: args.sort_by ?? (text === null ? DEFAULT_SEARCH_SORT : 'relevance'),
    text,
    ...(settled ? { textSettled: settled } : {}),
    budget: new PricingBudget(deps.config.searchMaxPriced, signal),
  };
}

/** A search's GET parameters named otherwise than its arguments (docs/contract.md, "HTTP routes"). */
export const SEARCH_GET_RENAMES: Readonly<Record<string, string>> = {
  check_in: 'start_date',
  latest_check_in: 'latest_start_date',
  check_out: 'end_date',
  bedrooms: 'min_bedrooms',
  // The tool's scope.display_city: a display city alone, even when a market has its slug (market=boston is the whole market).
  display_city: 'scope.display_city',
};

/** The arguments both search routes take as query parameters under their own names, in the reference's order. */
export const SEARCH_GET_QUERY: readonly string[] = [
  'market',
  'q',
  'neighborhood',
  'building',
  'committed_nights',
  'nights',
  'max_bedrooms',
  'min_bathrooms',
  'min_price',
  'max_price',
  'price_unit',
  ...Object.keys(FLAG_FIELDS),
  'near_latitude',
  'near_longitude',
  'near_radius_miles',
  'near_label',
  'min_rating',
  'guest_rating',
  'sort_by',
  'facets',
];

/** The unit of the facets' price buckets when the arguments ask for facets: the unit of min_price/max_price. */
export function facetUnit(args: Pick<SearchArgs, 'facets' | 'price_unit'>, stay: StayDates): PriceUnit | undefined {
  return args.facets === true ? (args.price_unit ?? displayUnit(stay)) : undefined;
}
