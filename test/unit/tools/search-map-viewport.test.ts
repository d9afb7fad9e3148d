/**
 * search_map_viewport, the map widget's own tool: listed for hosts with MCP Apps' app-only
 * visibility (checked against the library's published schema), never in the documents a model reads,
 * and the model-visible tools listed exactly as before.
 */
import { modelTools, TOOLS } from '../../../services/tools/registry';
import { openApiDocument } from '../../../services/docs/openapi';
import { toolsMarkdown } from '../../../services/docs/tools-markdown';
import { toolsList } from '../../../services/transports/mcp/tool-list';
import { argumentReader } from '../../../services/tools/validate';
import { searchOnMapTool } from '../../../services/tools/search-on-map';
import { mcpAppsErrors } from '../../support/mcp-apps-schema';

const NAME = 'search_map_viewport';
const listed = toolsList(TOOLS).tools;

describe('search_map_viewport', () => {
  it('is listed in tools/list with _meta.ui.visibility ["app"] and no widget of its own, valid as MCP Apps tool metadata', () => {
    const entry = listed.find((t) => t.name === NAME);
    expect(entry?._meta).toEqual({ ui: { visibility: ['app'] } });
    for (const t of listed) if (t._meta) expect(mcpAppsErrors('McpUiToolMeta', t._meta.ui)).toEqual([]);
  });

  it('is the only app-only tool; every other tool keeps the default visibility (model and app)', () => {
    const appOnly = listed.filter((t) => t._meta && 'visibility' in t._meta.ui);
    expect(appOnly.map((t) => t.name)).toEqual([NAME]);
  });

  it('is left out of tools.json, the markdown catalog and openapi.json, which list every other tool as before', () => {
    const documented = modelTools(TOOLS);
    expect(documented.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name).filter((n) => n !== NAME));
    expect(toolsList(documented).tools).toEqual(listed.filter((t) => t.name !== NAME));
    expect(toolsMarkdown(documented)).not.toContain(NAME);
    expect(JSON.stringify(openApiDocument(documented, 'http://localhost:3000'))).not.toContain(NAME);
  });

  it('takes the map search arguments with the viewport required, and answers the map search output', () => {
    const tool = TOOLS.find((t) => t.name === NAME)!;
    expect(tool.get).toBeUndefined();
    expect(tool.outputSchema).toBe(searchOnMapTool.outputSchema);
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(
      Object.keys((searchOnMapTool.inputSchema as { properties: object }).properties),
    );
    const read = argumentReader<object>(tool.inputSchema, 'json');
    const viewport = { sw_latitude: 30, sw_longitude: -100, ne_latitude: 42, ne_longitude: -80, zoom: 5 };
    expect(read({ ...viewport, min_bedrooms: 1 })).toEqual({ ...viewport, min_bedrooms: 1 });
    expect(() => read({ market: 'austin' })).toThrow(/sw_latitude/);
  });
});
