/**
 * search_map_viewport — the map widget's own tool: when a person pans or zooms the map, the widget
 * asks for the homes of the new viewport through its host (MCP Apps `tools/call` from the view), with
 * no model turn. The same search as search_apartments_on_map (answerMap), the viewport required.
 * App-only (`_meta.ui.visibility: ['app']`): hosts do not show it to the model, and the documents
 * (tools.json, the markdown catalog, openapi.json) leave it out (docs/decisions.md, "The widgets").
 */
import type { FromSchema } from 'json-schema-to-ts';
import { viewportProperties } from '../search/shared/viewport';
import { polygonProperties } from '../search/shared/polygon';
import { mapOutputSchema } from '../contracts/search-output';
import { searchArgProperties } from './search-args';
import { answerMap, type MapArgs } from './search-on-map';
import { defineTool, READ_ONLY } from './tool';

const inputSchema = {
  type: 'object',
  properties: { ...searchArgProperties, ...viewportProperties, ...polygonProperties },
  required: ['sw_latitude', 'sw_longitude', 'ne_latitude', 'ne_longitude', 'zoom'],
  additionalProperties: false,
} as const;

type Args = FromSchema<typeof inputSchema>;
type Output = FromSchema<typeof mapOutputSchema>;

export const searchMapViewportTool = defineTool<Args, Output>({
  name: 'search_map_viewport',
  title: 'Search the map viewport',
  description:
    "The map widget's search when a person pans or zooms the map: search_apartments_on_map's arguments with the viewport " +
    '(sw_latitude, sw_longitude, ne_latitude, ne_longitude, zoom) required, and its answer. Called by the widget, not by the model.',
  inputSchema,
  outputSchema: mapOutputSchema,
  annotations: READ_ONLY,
  // The map search's weight (search-on-map.ts).
  cost: 4,
  appOnly: true,
  // Nobody reads the text block: the widget draws structuredContent. The counts only, not the pins twice.
  modelText: ({ homes, clusters, ...envelope }) => ({ ...envelope, pins: homes.length, clusters: clusters?.length ?? 0 }),
  async handler(args, { deps, today, request }) {
    const mapArgs: MapArgs = args;
    return { data: await answerMap(deps, mapArgs, today, undefined, request.signal) };
  },
});
