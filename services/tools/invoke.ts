/**
 * Runs a tool for either transport: validate the arguments, call the handler with a context
 * built for this request. Handlers never learn which transport called them.
 */
import type { Deps } from '../deps';
import { todayIso } from '../kernel/engine/dates';
import type { AnyTool, ToolResult } from './tool';
import type { Validator } from './validate';

export async function invokeTool(
  tool: AnyTool,
  validator: Validator,
  rawArgs: unknown,
  deps: Deps,
): Promise<ToolResult<unknown>> {
  const args = validator(rawArgs);
  const now = deps.clock();
  return tool.handler(args as never, { deps, now, today: todayIso(now) });
}
