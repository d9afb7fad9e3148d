/** search_apartments_tool — GET /api/public/search (docs/contract.md, "search_apartments_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { CARD_GRID_WIDGET } from '../widgets/catalog';
import { answerSearch } from './search-common';
import { SEARCH_GET_QUERY, SEARCH_GET_RENAMES, searchArgProperties } from './search-args';
import { searchOutputSchema } from '../contracts/search-output';
import { defineTool, READ_ONLY } from './tool';
import { SEARCH_MAX_PAGE, SEARCH_PAGE } from '../kernel/limits/pages';
import { HERO_IMAGES_PER_PAGE } from '../kernel/limits/media';
import { DEFAULT_RADIUS_MILES } from '../kernel/limits/radius';
import { POLYGON_MAX_VERTICES, polygonProperties, polygonQuery } from '../search/shared/polygon';
import { WINDOW_USE } from './search-args';

const inputSchema = {
  type: 'object',
  properties: {
    ...searchArgProperties,
    ...polygonProperties,
    page: { type: 'integer', minimum: 1, maximum: SEARCH_MAX_PAGE, default: 1, description: '1-indexed page; fetch later pages while page <= total_pages.' },
    per_page: {
      type: 'integer',
      minimum: 1,
      default: SEARCH_PAGE.default,
      description: `Apartments per page; default ${SEARCH_PAGE.default}, capped at ${SEARCH_PAGE.max}.`,
    },
    include_hero_images: {
      type: 'boolean',
      description:
        `True: up to ${HERO_IMAGES_PER_PAGE} hero photos of the page are also returned as embedded images (each with _meta.home_slug); false omits them. ` +
        'Default true, except for a client that renders the results widget (it shows the photos from their URLs): false.',
    },
  },
  additionalProperties: false,
} as const;

type Output = FromSchema<typeof searchOutputSchema>;

export const searchApartmentsTool = defineTool<FromSchema<typeof inputSchema>, Output>({
  name: 'search_apartments_tool',
  title: 'Search apartments',
  description:
    'Searches furnished apartments in a display city or market (market: a slug from list_markets_tool, or scope). ' +
    'Pass start_date and end_date (or end_date "indefinite", optionally with a committed_nights Flex tier) to see only ' +
    'apartments bookable for that stay, each with its all-in price for those dates (the same figure get_quote_tool gives). ' +
    WINDOW_USE +
    'Filters: bedrooms, bathrooms, min/max_price (all-in, in price_unit), pets, parking, pool, gym, laundry, air ' +
    'conditioning, balcony, elevator, ground floor, self check-in, deals_only, min_rating/guest_rating, and a point ' +
    `with near_latitude/near_longitude/near_radius_miles (a true circle, default ${DEFAULT_RADIUS_MILES} miles). A polygon (up to ${POLYGON_MAX_VERTICES} ` +
    'vertices {latitude, longitude}, a shape drawn on a map) keeps only apartments inside it, with market or in its place. ' +
    'q searches words no filter says (a building\'s name, "coworking", "rooftop"): every word must match, typos and synonyms allowed, ' +
    'and each result carries matched (why it is there); prefer a filter when one exists. neighborhood and building (slugs) narrow to one. ' +
    'sort_by price_asc (default; relevance with q), ' +
    `price_desc, availability, newest, rating_desc. Pages of per_page (default ${SEARCH_PAGE.default}, max ${SEARCH_PAGE.max}) with total_count and ` +
    'total_pages (a very deep price-sorted dated page is refused as search_too_broad: pass min_price at the last price ' +
    `shown to go further). Up to ${HERO_IMAGES_PER_PAGE} hero photos of the page come as embedded images (include_hero_images: false ` +
    'omits them; a client showing the results widget gets them only with include_hero_images: true). Dates are start_date/end_date; check_in/check_out are refused. For a map or a point of interest ' +
    'use search_apartments_on_map; to compare buildings use search_properties_tool.',
  inputSchema,
  outputSchema: searchOutputSchema,
  annotations: READ_ONLY,
  // Rate-limit weight: a dated market search: ~2 apartment reads of service time.
  cost: 2,
  widget: CARD_GRID_WIDGET,
  get: {
    path: '/search',
    renames: { ...SEARCH_GET_RENAMES },
    query: [...SEARCH_GET_QUERY, 'page', 'per_page', 'polygon'],
    // The polygon's GET form is text: lat,lon;lat,lon;… (docs/decisions.md, "A drawn polygon").
    encoded: { polygon: polygonQuery },
    // docs/contract.md, "HTTP routes": GET search takes `market`, `display_city` (the tool's scope.display_city) or a polygon.
    requiredOneOf: [['market'], ['display_city'], ['polygon']],
    summary: 'Search apartments in a city or market, with exact all-in prices for the dates',
  },
  async handler(args, { deps, today, request }) {
    const { page: pageArg, per_page, include_hero_images, ...searchArgs } = args;
    const page = pageArg ?? 1;
    const perPage = Math.min(per_page ?? SEARCH_PAGE.default, SEARCH_PAGE.max);
    const answer = await answerSearch(deps, searchArgs, today, (page - 1) * perPage, perPage, undefined, request.signal);
    // Embedded photos only where they are not already shown: a client rendering the results widget
    // (which loads them from their URLs) gets them when asked for.
    const embedHeroes = include_hero_images ?? !request.rendersWidgets;
    const images = embedHeroes
      ? answer.heroes.flatMap((h) => (h.photoId ? [{ photoId: h.photoId, meta: { home_slug: h.slug } }] : [])).slice(0, HERO_IMAGES_PER_PAGE)
      : undefined;
    return {
      data: {
        ...answer.envelope,
        page,
        per_page: perPage,
        total_pages: Math.ceil(answer.envelope.total_count / perPage),
        homes: answer.homes,
      },
      images,
    };
  },
});
