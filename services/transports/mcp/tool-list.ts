/** The `tools/list` entries, derived from the registry (also served as tools.json). */
import type { Tool } from '../../tools/tool';

/**
 * Where a host finds the tool's widget: MCP Apps' key and ChatGPT's older one, the same `ui://` URI;
 * or, for a widget's own tool, MCP Apps' visibility that keeps it from the model.
 */
export type ListedToolMeta = { ui: { resourceUri: string }; 'openai/outputTemplate': string } | { ui: { visibility: ['app'] } };

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  outputSchema: { type: 'object'; [keyword: string]: unknown };
  annotations: { title: string } & Tool['annotations'];
  _meta?: ListedToolMeta;
}

export function listedTool(tool: Tool): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as ListedTool['inputSchema'],
    outputSchema: tool.outputSchema as ListedTool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
    ...(tool.widget ? { _meta: { ui: { resourceUri: tool.widget.uri }, 'openai/outputTemplate': tool.widget.uri } } : {}),
    ...(tool.appOnly ? { _meta: { ui: { visibility: ['app'] } } } : {}),
  };
}

export function toolsList(tools: readonly Tool[]): { tools: ListedTool[] } {
  return { tools: tools.map(listedTool) };
}
