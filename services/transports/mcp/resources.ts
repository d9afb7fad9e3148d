/**
 * The widgets as MCP resources (MCP Apps, MCP.md "The interactive-app extension"): `resources/list`
 * names both, `resources/read` answers the bundled HTML; an unknown URI is a JSON-RPC error.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ListResourcesResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { widgetDocuments } from '../../widgets/bundle';
import { WIDGET_MIME_TYPE, WIDGETS, type WidgetDefinition } from '../../widgets/catalog';

/** MCP's error code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * What the widget may load: nothing but our own photos (the hero images; the first five also come
 * embedded). `ui.csp` is MCP Apps' form, `openai/widgetCSP` ChatGPT's.
 */
export function widgetResourceMeta(widget: WidgetDefinition, publicBaseUrl: string): Record<string, unknown> {
  const photos = new URL(publicBaseUrl).origin;
  return {
    ui: { csp: { connectDomains: [], resourceDomains: [photos] }, prefersBorder: true },
    'openai/widgetDescription': widget.description,
    'openai/widgetPrefersBorder': true,
    'openai/widgetCSP': { connect_domains: [], resource_domains: [photos] },
  };
}

export function registerWidgetResources(server: Server, publicBaseUrl: string): void {
  server.setRequestHandler(
    ListResourcesRequestSchema,
    async (): Promise<ListResourcesResult> => ({
      resources: WIDGETS.map((w) => ({
        uri: w.uri,
        name: w.name,
        title: w.title,
        description: w.description,
        mimeType: WIDGET_MIME_TYPE,
        _meta: widgetResourceMeta(w, publicBaseUrl),
      })),
    }),
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const widget = WIDGETS.find((w) => w.uri === request.params.uri);
    if (!widget) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri}`, { uri: request.params.uri });
    const html = (await widgetDocuments()).get(widget.uri);
    if (html === undefined) throw new McpError(RESOURCE_NOT_FOUND, `Resource not built: ${widget.uri}`);
    return { contents: [{ uri: widget.uri, mimeType: WIDGET_MIME_TYPE, text: html, _meta: widgetResourceMeta(widget, publicBaseUrl) }] };
  });
}
