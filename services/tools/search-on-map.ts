/** search_apartments_on_map — tool server only (spec: "search_apartments_on_map"). */
import type { FromSchema } from 'json-schema-to-ts';
import { MAP_WIDGET } from '../widgets/catalog';
import { answerSearch } from './search-common';
import { searchArgProperties } from './search-args';
import { mapOutputSchema } from './search-output';
import { defineTool, READ_ONLY } from './tool';

/** "Limits": map search pins per call, at most 250. */
export const MAP_PINS = 250;

const inputSchema = { type: 'object', properties: searchArgProperties, additionalProperties: false } as const;

type Output = FromSchema<typeof mapOutputSchema>;

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
    'whether the map is switched on (reason when not).',
  inputSchema,
  outputSchema: mapOutputSchema,
  annotations: READ_ONLY,
  widget: MAP_WIDGET,
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
