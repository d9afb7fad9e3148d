/** search_apartments_on_map — GET /api/public/map-search (docs/contract.md, "search_apartments_on_map": viewport and clusters). */
import type { FromSchema } from 'json-schema-to-ts';
import type { Deps } from '../deps';
import { badRequest } from '../kernel/errors';
import type { IsoDate } from '../kernel/inventory/records';
import { resolveLocation } from '../search/shared/location';
import { clusterPrecision, MAX_ZOOM, readViewport, viewportProperties, type Viewport } from '../search/shared/viewport';
import { POLYGON_MAX_VERTICES, polygonProperties, polygonQuery, readPolygon } from '../search/shared/polygon';
import { clusterAggs, readClusters } from '../search/map/clusters';
import type { TripRecorder } from '../search/apartments/apartment-search';
import { MAP_WIDGET } from '../widgets/catalog';
import { placeFields, runSearch } from './search-common';
import { facetUnit, readSearchParamsIn, SEARCH_GET_QUERY, SEARCH_GET_RENAMES, searchArgProperties } from './search-args';
import { mapOutputSchema, type MapAnswer } from '../contracts/search-output';
import { defineTool, READ_ONLY } from './tool';
import { MAP_PINS } from '../kernel/limits/pages';
import { DEFAULT_RADIUS_MILES } from '../kernel/limits/radius';

const inputSchema = {
  type: 'object',
  properties: { ...searchArgProperties, ...viewportProperties, ...polygonProperties },
  additionalProperties: false,
} as const;

type Output = MapAnswer;

/**
 * What the text block lists of each pin: enough to name, place and price it, and its chosen stay with a
 * window of move-in dates (up to MAP_PINS pins in well under 25k tokens; the whole answer is about
 * 1.1 kB a pin). structuredContent, which the map widget draws, keeps every field.
 */
export const PIN_BRIEF = ['slug', 'name', 'bedrooms', 'latitude', 'longitude', 'display_price_with_discount', 'display_price_label', 'stay'] as const;
export const PINS_NOTE =
  'Pins in brief. structuredContent has every field of each apartment (photos, price breakdown, home_url, Flex options); get_apartment_tool gives one apartment whole.';
/** Clusters the text block lists (the largest); structuredContent has them all (up to a viewport's 512 tiles). */
export const CLUSTERS_IN_BRIEF = 60;

type Pin = Output['homes'][number];
const brief = (pin: Pin): Pick<Pin, (typeof PIN_BRIEF)[number]> =>
  Object.fromEntries(PIN_BRIEF.map((k) => [k, pin[k]])) as Pick<Pin, (typeof PIN_BRIEF)[number]>;

export const MAP_OFF_REASON = 'The map view is switched off on this server; the matching apartments are listed without a map.';

const NO_PLACE =
  'A location is required: pass market (a display-city or market slug from list_markets_tool), scope.display_city / scope.market, ' +
  'a viewport (sw_latitude, sw_longitude, ne_latitude, ne_longitude and zoom), or a polygon to search inside.';

const echo = (v: Viewport): NonNullable<Output['viewport']> => ({
  sw_latitude: v.south,
  sw_longitude: v.west,
  ne_latitude: v.north,
  ne_longitude: v.east,
  zoom: v.zoom,
  cluster_precision: clusterPrecision(v),
});

export type MapArgs = FromSchema<typeof inputSchema>;

/** A value with every object's keys in one order: the same arguments give the same text whatever order they came in. */
function inKeyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(inKeyOrder);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, inKeyOrder(o[k])]),
  );
}

/** A question's key: its arguments in one order, and the day (prices and windows are the day's). */
const questionKey = (args: MapArgs, today: IsoDate): string => JSON.stringify([today, inKeyOrder(args)]);

/**
 * V8 heap bytes an answer object holds per byte of its JSON: pins are many small objects of numbers and short
 * strings, whose names the JSON repeats and the objects share (measured on national answers:
 * test/e2e/map-answer-memory.test.ts).
 */
export const OBJECT_BYTES_PER_JSON_BYTE = 1.5;

/**
 * Bytes a kept answer's object holds, about: counted from its JSON's length (written here once, then let go).
 * Its served forms (JSON, bytes, compressed bytes) are counted as each transport makes them
 * (kernel/store/answer-forms.ts).
 */
export const mapAnswerBytes = (a: Output): number => Math.ceil(OBJECT_BYTES_PER_JSON_BYTE * JSON.stringify(a).length);

/**
 * The map's answer to some arguments, kept per index generation (deps.mapAnswers); `record` sees each
 * Elasticsearch round trip (the bench replays them), and a recorded search is always computed.
 */
export async function answerMap(deps: Deps, args: MapArgs, today: IsoDate, record?: TripRecorder, signal?: AbortSignal): Promise<Output> {
  if (record) return computeMap(deps, args, today, record, signal);
  return deps.mapAnswers.answer(questionKey(args, today), () => computeMap(deps, args, today, undefined, signal));
}

async function computeMap(deps: Deps, args: MapArgs, today: IsoDate, record?: TripRecorder, signal?: AbortSignal): Promise<Output> {
  const { sw_latitude, sw_longitude, ne_latitude, ne_longitude, zoom, polygon: drawn, ...searchArgs } = args;
  const viewport = readViewport({ sw_latitude, sw_longitude, ne_latitude, ne_longitude, zoom });
  const polygon = readPolygon(drawn);
  const named = searchArgs.market !== undefined || searchArgs.scope !== undefined;
  if (!named && viewport === null && polygon === null) throw badRequest('invalid_parameters', NO_PLACE);
  // A viewport or a polygon without a place may cross markets; with one, the homes are in all that are given.
  const params = await readSearchParamsIn(deps, searchArgs, today, () => (named ? resolveLocation(deps, searchArgs) : Promise.resolve(null)), signal);
  const answer = await runSearch(deps, { ...params, viewport, polygon }, today, 0, MAP_PINS, {
    nearLabel: searchArgs.near_label,
    record,
    facets: facetUnit(searchArgs, params.stay),
    ...(viewport ? { aggs: clusterAggs(params.window ? null : params.stay, viewport) } : {}),
  });
  const clusters =
    viewport && answer.envelope.total_count > MAP_PINS
      ? readClusters(answer.found.aggregations, viewport, params.stay, params.price, (home) => answer.found.priceIfAffordable(home), !params.window)
      : undefined;
  const enabled = deps.config.mapViewEnabled;
  return {
    ...placeFields(params.location),
    ...answer.envelope,
    homes: answer.homes,
    ...(viewport ? { viewport: echo(viewport) } : {}),
    ...(clusters ? { clusters } : {}),
    map_view: { requested: true, enabled, ...(enabled ? {} : { reason: MAP_OFF_REASON }) },
  };
}

export const searchOnMapTool = defineTool<MapArgs, Output>({
  name: 'search_apartments_on_map',
  title: 'Search apartments on a map',
  description:
    'The apartment search for location and proximity questions: the same arguments and per-apartment fields as ' +
    'search_apartments_tool (market or scope, dates or a window of move-in dates, filters, sort_by), without paging: every match in one call as ' +
    `map pins (latitude, longitude), at most ${MAP_PINS} (the first ${MAP_PINS} in the search order; total_count says ` +
    'how many match). For a point such as a building, employer or campus pass near_latitude, near_longitude, ' +
    `near_radius_miles (default ${DEFAULT_RADIUS_MILES}) and near_label, with market set to the city or market around it. For what a map ` +
    `shows, pass its viewport: sw_latitude, sw_longitude, ne_latitude, ne_longitude and zoom (0-${MAX_ZOOM}); it may stand in ` +
    'for the market (it can span several) and only apartments inside it match. A polygon (up to ' +
    `${POLYGON_MAX_VERTICES} vertices {latitude, longitude}, a shape drawn on the map) does the same for a drawn shape, alone or with the others. When more than ` +
    `${MAP_PINS} match in a viewport the answer also has clusters (tile, count, centroid, bounds, cheapest price). map_view says ` +
    'whether the map is switched on (reason when not); with a window of move-in dates (latest_start_date) each pin carries its chosen stay and ' +
    'clusters carry no price. The text lists each pin in brief (slug, name, bedrooms, ' +
    'position, price); structuredContent has every field of every pin.',
  inputSchema,
  outputSchema: mapOutputSchema,
  annotations: READ_ONLY,
  // Rate-limit weight: a viewport search aggregates clusters over every match and prices up to MAP_PINS pins.
  cost: 4,
  widget: MAP_WIDGET,
  get: {
    path: '/map-search',
    renames: { ...SEARCH_GET_RENAMES },
    query: [...SEARCH_GET_QUERY, ...Object.keys(viewportProperties), 'polygon'],
    // The polygon's GET form is text: lat,lon;lat,lon;… (docs/decisions.md, "A drawn polygon").
    encoded: { polygon: polygonQuery },
    // A market or a display city (the tool's scope.display_city), or a viewport or a polygon standing in for it.
    requiredOneOf: [['market'], ['display_city'], Object.keys(viewportProperties), ['polygon']],
    summary: `Search apartments for a map: a market or a viewport (with clusters when more than ${MAP_PINS} match)`,
  },
  modelText: ({ homes, clusters, ...envelope }) => ({
    ...envelope,
    note:
      PINS_NOTE + (clusters && clusters.length > CLUSTERS_IN_BRIEF ? ` The ${CLUSTERS_IN_BRIEF} largest of ${clusters.length} clusters are listed here.` : ''),
    homes: homes.map(brief),
    ...(clusters ? { clusters: clusters.slice(0, CLUSTERS_IN_BRIEF) } : {}),
  }),
  async handler(args, { deps, today, request }) {
    return { data: await answerMap(deps, args, today, undefined, request.signal) };
  },
});
