/** The `tools/list` entries, derived from the registry (also served as tools.json). */
import type { AnyTool } from '../../tools/tool';

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: { title: string } & AnyTool['annotations'];
}

export function listedTool(tool: AnyTool): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    outputSchema: tool.outputSchema as Record<string, unknown>,
    annotations: { title: tool.title, ...tool.annotations },
  };
}

export function toolsList(tools: readonly AnyTool[]): { tools: ListedTool[] } {
  return { tools: tools.map(listedTool) };
}
