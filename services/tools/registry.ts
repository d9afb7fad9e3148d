/**
 * The one tool registry. Both transports and the three documents (tools.json, the tools
 * markdown, openapi.json) are derived from this list; nothing else names a tool. The documents
 * take the tools a model may call (modelTools), which is also what tools/list lists a plain client; a
 * widget's own tool is listed only to a host of widgets (listedTools).
 */
import { availabilityOverviewTool } from './availability-overview';
import { bookingIntentTool } from './booking-intent';
import { compareApartmentsTool } from './compare-apartments';
import { getApartmentTool } from './get-apartment';
import { getFlexOptionsTool } from './get-flex-options';
import { getMarketFiltersTool } from './get-market-filters';
import { getMarketInfoTool } from './get-market-info';
import { getQuoteTool } from './get-quote';
import { listMarketsTool } from './list-markets';
import { suggestPlacesRoute } from './suggest-places';
import { policiesFaqTool } from './policies-faq';
import { searchApartmentsTool } from './search-apartments';
import { searchOnMapTool } from './search-on-map';
import { searchPropertiesTool } from './search-properties';
import { searchMapViewportTool } from './search-map-viewport';
import { watchSearchTool } from './watch-search';
import type { Tool } from './tool';

export const TOOLS: readonly Tool[] = [
  listMarketsTool,
  getMarketFiltersTool,
  searchApartmentsTool,
  searchOnMapTool,
  searchPropertiesTool,
  availabilityOverviewTool,
  getApartmentTool,
  getFlexOptionsTool,
  getQuoteTool,
  compareApartmentsTool,
  bookingIntentTool,
  watchSearchTool,
  getMarketInfoTool,
  policiesFaqTool,
  searchMapViewportTool,
];

/** The GET API's routes with no tool of their own: served and described under /api/public, never on the tool server. */
export const HTTP_ROUTES: readonly Tool[] = [suggestPlacesRoute];

/** The tools a model may call: all but the widgets' own (appOnly). */
export function modelTools(tools: readonly Tool[]): readonly Tool[] {
  return tools.filter((t) => !t.appOnly);
}

/**
 * The tools tools/list lists a client: a host that declared the MCP Apps extension (it renders the
 * widgets, whose own tools it keeps from the model) every tool; any other client those a model may call.
 */
export function listedTools(tools: readonly Tool[], hostsWidgets: boolean): readonly Tool[] {
  return hostsWidgets ? tools : modelTools(tools);
}
