/**
 * Runs a tool for either transport: validate the arguments, call the handler with a context
 * built for this request. Handlers never learn which transport called them.
 */
import type { Deps } from '../deps';
import { todayIso } from '../kernel/engine/dates';
import type { AnyTool, ToolContext, ToolResult } from './tool';
import type { Validator } from './validate';

export async function invokeTool(
  tool: AnyTool,
  validator: Validator,
  rawArgs: unknown,
  deps: Deps,
): Promise<ToolResult<unknown>> {
  return tool.handler(validator(rawArgs) as never, toolContext(deps));
}

/** The context of one call: the stores, and the moment and day requests are judged against (read once). */
export function toolContext(deps: Deps): ToolContext {
  const now = deps.clock();
  return { deps, now, today: todayIso(now) };
}
