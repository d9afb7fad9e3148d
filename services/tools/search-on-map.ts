/** search_apartments_on_map — tool server only (spec: "search_apartments_on_map"). */
import type { FromSchema } from 'json-schema-to-ts';
import { MAP_WIDGET } from '../widgets/catalog';
import { answerSearch } from './search-common';
import { searchArgProperties } from './search-args';
import { mapOutputSchema } from '../contracts/search-output';
import { defineTool, READ_ONLY } from './tool';

/** "Limits": map search pins per call, at most 250. */
export const MAP_PINS = 250;

const inputSchema = { type: 'object', properties: searchArgProperties, additionalProperties: false } as const;

type Output = FromSchema<typeof mapOutputSchema>;

/**
 * What the text block lists of each pin: enough to name, place and price it (up to 250 pins in well
 * under 25k tokens; the whole answer is about 1.1 kB a pin). structuredContent, which the map widget
 * draws, keeps every field.
 */
export const PIN_BRIEF = ['slug', 'name', 'bedrooms', 'latitude', 'longitude', 'display_price_with_discount', 'display_price_label'] as const;
export const PINS_NOTE =
  'Pins in brief. structuredContent has every field of each apartment (photos, price breakdown, home_url, Flex options); get_apartment_tool gives one apartment whole.';

type Pin = Output['homes'][number];
const brief = (pin: Pin): Pick<Pin, (typeof PIN_BRIEF)[number]> =>
  Object.fromEntries(PIN_BRIEF.map((k) => [k, pin[k]])) as Pick<Pin, (typeof PIN_BRIEF)[number]>;

export const MAP_OFF_REASON = 'The map view is switched off on this server; the matching apartments are listed without a map.';

export const searchOnMapTool = defineTool<FromSchema<typeof inputSchema>, Output>({
  name: 'search_apartments_on_map',
  title: 'Search apartments on a map',
  description:
    'The apartment search for location and proximity questions: the same arguments and per-apartment fields as ' +
    'search_apartments_tool (market or scope, dates, filters, sort_by), without paging: every match in one call as ' +
    `map pins (latitude, longitude), at most ${MAP_PINS} (the first ${MAP_PINS} in the search order; total_count says ` +
    'how many match). For a point such as a building, employer or campus pass near_latitude, near_longitude, ' +
    'near_radius_miles (default 5) and near_label, with market set to the city or market around it. map_view says ' +
    'whether the map is switched on (reason when not). The text lists each pin in brief (slug, name, bedrooms, ' +
    'position, price); structuredContent has every field of every pin.',
  inputSchema,
  outputSchema: mapOutputSchema,
  annotations: READ_ONLY,
  widget: MAP_WIDGET,
  modelText: ({ homes, ...envelope }) => ({ ...envelope, note: PINS_NOTE, homes: homes.map(brief) }),
  async handler(args, { deps, today }) {
    const answer = await answerSearch(deps, args, today, 0, MAP_PINS);
    const enabled = deps.config.mapViewEnabled;
    return {
      data: {
        ...answer.envelope,
        homes: answer.homes,
        map_view: { requested: true, enabled, ...(enabled ? {} : { reason: MAP_OFF_REASON }) },
      },
    };
  },
});
