/** availability_overview_tool — tool server only (docs/contract.md, "availability_overview_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { earliestAhead, windowsStillOpen } from '../kernel/engine/overview-windows';
import type { HomeDocument } from '../kernel/store/home-document';
import { homeUrl } from '../homes/links';
import { availabilityRangesOf } from '../homes/availability-ranges';
import { sharedFilterProperties } from '../search/shared/filters';
import { locationProperties, resolveLocation } from '../search/shared/location';
import { searchOverview } from '../search/overview/overview-search';
import { SEARCH_SORTS } from '../search/shared/sorts';
import { rangeSchema } from '../contracts/apartment-output';
import { displayCitySchema } from '../contracts/output-pieces';
import { defineTool, READ_ONLY } from './tool';
import { badRequest } from '../kernel/errors';
import { sharedFiltersOf } from './search-args';
import { priceLimitSchema } from '../kernel/inventory/schema-pieces';
import { APARTMENT_PAGE_DEPTH, OVERVIEW_PAGE } from '../kernel/limits/pages';

/** The shared filters the overview takes: all but those marked (S) (docs/contract.md, "Filters"). */
const { near_latitude, near_longitude, near_radius_miles, ...overviewFilters } = sharedFilterProperties;
void near_latitude;
void near_longitude;
void near_radius_miles;

/** The deepest apartment a page may reach: the apartment search's. */
export const OVERVIEW_MAX_DEPTH = APARTMENT_PAGE_DEPTH;

const inputSchema = {
  type: 'object',
  properties: {
    ...locationProperties,
    ...overviewFilters,
    near_latitude: sharedFilterProperties.near_latitude,
    near_longitude: sharedFilterProperties.near_longitude,
    near_radius_miles: sharedFilterProperties.near_radius_miles,
    // Capped: a larger integer makes Elasticsearch refuse the range (a 500 instead of a 400).
    min_price: { ...priceLimitSchema, description: 'Minimum base monthly rate, USD (no dates: the rate before discounts).' },
    max_price: { ...priceLimitSchema, description: 'Maximum base monthly rate, USD.' },
    sort_by: { type: 'string', enum: SEARCH_SORTS, default: 'availability', description: 'Order of the apartments; rating_desc puts unrated last.' },
    include_ranges: { type: 'boolean', default: false, description: 'True adds the raw occupancy ranges of each apartment (av.r).' },
    nights: { type: 'integer', minimum: 1, maximum: 365, description: 'Drops apartments whose minimum stay (av.ms) exceeds this many nights.' },
    page: {
      type: 'integer',
      minimum: 1,
      maximum: OVERVIEW_MAX_DEPTH,
      default: 1,
      description: `1-indexed page; page × per_page at most ${OVERVIEW_MAX_DEPTH.toLocaleString('en-US')}.`,
    },
    per_page: {
      type: 'integer',
      minimum: 1,
      default: OVERVIEW_PAGE.default,
      description: `Apartments per page; default ${OVERVIEW_PAGE.default}, capped at ${OVERVIEW_PAGE.max}.`,
    },
  },
  additionalProperties: false,
} as const;

const windowSchema = {
  type: 'object',
  description:
    'A bookable window: s start, e end (absent = open-ended), n nights (absent = open-ended), mi move-in at start, mo move-out at end, ms its minimum when stricter than av.ms.',
  properties: {
    s: { type: 'string' },
    e: { type: 'string' },
    n: { type: 'integer' },
    mi: { type: 'boolean' },
    mo: { type: 'boolean' },
    ms: { type: 'integer' },
  },
  required: ['s', 'mi', 'mo'],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    market: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'], additionalProperties: false },
    display_city: displayCitySchema,
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    count: { type: 'integer', description: 'Apartments on this page.' },
    total_count: { type: 'integer' },
    total_pages: { type: 'integer' },
    homes: {
      type: 'array',
      items: {
        type: 'object',
        description: 'sl slug, n name, bd bedrooms, ba bathrooms, sf square feet, ct city, u apartment URL, av availability.',
        properties: {
          sl: { type: 'string' },
          n: { type: 'string' },
          bd: { type: 'integer' },
          ba: { type: 'number' },
          sf: { type: 'integer' },
          ct: { type: 'string' },
          u: { type: 'string' },
          av: {
            type: 'object',
            description:
              'ms minimum stay (floor), ed earliest available date (never past), w bookable windows, r raw ranges. A stay of N nights fits a window when N <= n and N >= (window ms, else av.ms).',
            properties: {
              ms: { type: 'integer' },
              ed: { type: 'string' },
              w: { type: 'array', items: windowSchema },
              r: { type: 'array', items: rangeSchema },
            },
            required: ['ms', 'w'],
            additionalProperties: false,
          },
        },
        required: ['sl', 'n', 'bd', 'ba', 'sf', 'ct', 'u', 'av'],
        additionalProperties: false,
      },
    },
  },
  required: ['market', 'display_city', 'page', 'per_page', 'count', 'total_count', 'total_pages', 'homes'],
  additionalProperties: false,
} as const;

type Overview = FromSchema<typeof outputSchema>;
type OverviewHome = Overview['homes'][number];

function compactHome(doc: HomeDocument, siteBaseUrl: string, today: string): OverviewHome {
  // Indexed in compact keys already (kernel/engine/overview-windows.ts); those ended by today go, ed stays ahead.
  const windows = windowsStillOpen(doc.windows, today);
  const ed = earliestAhead(doc.earliest_available_date, windows, today);
  return {
    sl: doc.slug,
    n: doc.name,
    bd: doc.bedrooms,
    ba: doc.bathrooms,
    sf: doc.sqft,
    ct: doc.city_name,
    u: homeUrl(siteBaseUrl, doc.slug, null),
    av: { ms: doc.minimum_nightly_stay, ...(ed ? { ed } : {}), w: windows },
  };
}

export const availabilityOverviewTool = defineTool<FromSchema<typeof inputSchema>, Overview>({
  name: 'availability_overview_tool',
  title: 'Availability overview of a city or market',
  description:
    'Every matching apartment of a city or market with its bookable windows and minimum-stay rules, without a ' +
    'date filter, in compact keys (sl slug, n name, bd bedrooms, ba baths, sf sqft, ct city, u URL; av: ms minimum ' +
    'stay, ed earliest date, w windows with s/e/n/mi/mo/ms). A stay of N nights fits a window when N <= n and ' +
    'N >= (window ms, else av.ms). Use it once per market and reuse the result: it is more heavily rate limited. ' +
    'Pass market (or scope), optional shared filters, nights, min/max_price on the base monthly rate, sort_by, ' +
    `include_ranges, page and per_page (default ${OVERVIEW_PAGE.default}, max ${OVERVIEW_PAGE.max}).`,
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  rateBucket: 'overview',
  async handler(args, { deps, today, request }) {
    const location = await resolveLocation(deps, args);
    const perPage = Math.min(args.per_page ?? OVERVIEW_PAGE.default, OVERVIEW_PAGE.max);
    const page = args.page ?? 1;
    if (page * perPage > OVERVIEW_MAX_DEPTH) {
      throw badRequest(
        'invalid_parameters',
        `page × per_page reaches past apartment ${OVERVIEW_MAX_DEPTH.toLocaleString('en-US')}; narrow the search with filters (a city, bedrooms, nights) or page with a larger per_page.`,
      );
    }
    const { min_price, max_price, sort_by, include_ranges, nights } = args;
    const filters = sharedFiltersOf(args);
    const { total, homes: docs } = await searchOverview(
      deps,
      { location, filters, nights, minPrice: min_price, maxPrice: max_price, sort: sort_by ?? 'availability', page, perPage },
      request.signal,
    );
    const ranges = include_ranges
      ? await availabilityRangesOf(
          deps,
          docs.map((d) => d.home_id),
          today,
        )
      : null;
    const homes = docs.map((d) => {
      const home = compactHome(d, deps.config.siteBaseUrl, today);
      const r = ranges?.get(d.home_id);
      return r ? { ...home, av: { ...home.av, r } } : home;
    });
    const city = location.city;
    return {
      data: {
        market: { slug: location.market.slug },
        display_city: city ? { slug: city.slug, name: city.name, state: city.state } : null,
        page,
        per_page: perPage,
        count: homes.length,
        total_count: total,
        total_pages: Math.ceil(total / perPage),
        homes,
      },
    };
  },
});
