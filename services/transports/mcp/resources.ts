/**
 * The widgets as MCP resources (the MCP Apps extension, `io.modelcontextprotocol/ui`): `resources/list`
 * names both, `resources/read` answers the bundled HTML; an unknown URI is -32602 with the URI in
 * `data` (SEP-2164, the same on both eras). There are no templates: the list is empty.
 */
import { ResourceNotFoundError, type ListResourcesResult, type ReadResourceResult, type Server } from '@modelcontextprotocol/server';
import { widgetDocuments } from '../../widgets/bundle';
import { WIDGET_MIME_TYPE, WIDGETS, type WidgetDefinition } from '../../widgets/catalog';

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
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/list', async (): Promise<ListResourcesResult> => ({
    resources: WIDGETS.map((w) => ({
      uri: w.uri,
      name: w.name,
      title: w.title,
      description: w.description,
      mimeType: WIDGET_MIME_TYPE,
      _meta: widgetResourceMeta(w, publicBaseUrl),
    })),
  }));
  server.setRequestHandler('resources/read', async (request): Promise<ReadResourceResult> => {
    const widget = WIDGETS.find((w) => w.uri === request.params.uri);
    if (!widget) throw new ResourceNotFoundError(request.params.uri);
    const html = (await widgetDocuments()).get(widget.uri);
    if (html === undefined) throw new ResourceNotFoundError(widget.uri);
    return { contents: [{ uri: widget.uri, mimeType: WIDGET_MIME_TYPE, text: html, _meta: widgetResourceMeta(widget, publicBaseUrl) }] };
  });
}
