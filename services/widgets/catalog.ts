/**
 * The interactive-app widgets (the MCP Apps extension; docs/decisions.md, "The widgets"): each is one self-contained
 * HTML document served as an MCP Apps `ui://` resource and named by its tool's definition.
 */

/** MCP Apps' MIME type for a view's HTML. */
export const WIDGET_MIME_TYPE = 'text/html;profile=mcp-app';

export interface WidgetDefinition {
  uri: `ui://${string}`;
  name: string;
  title: string;
  description: string;
  /** Browser entry point under services/widgets/app, bundled into the document. */
  entry: string;
}

export const CARD_GRID_WIDGET: WidgetDefinition = {
  uri: 'ui://furnished-catalog/search-cards.html',
  name: 'search-cards',
  title: 'Apartment cards',
  description: 'The page of a search_apartments_tool result as a grid of apartment cards (photo, facts, all-in price); a click asks about that apartment.',
  entry: 'cards.ts',
};

export const MAP_WIDGET: WidgetDefinition = {
  uri: 'ui://furnished-catalog/search-map.html',
  name: 'search-map',
  title: 'Apartment map',
  description:
    'The homes of a search_apartments_on_map result as pins over a US map (drawn offline); a click asks about that apartment. Says so when the map view is off.',
  entry: 'map.ts',
};

export const WIDGETS: readonly WidgetDefinition[] = [CARD_GRID_WIDGET, MAP_WIDGET];

/** The MCP Apps extension as a server capability (`initialize` and `server/discover`): views are served as this MIME type. */
export const WIDGET_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: [WIDGET_MIME_TYPE] } };
