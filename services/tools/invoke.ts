/**
 * The context a tool call runs in, built the same way for either transport: handlers never learn
 * which transport called them.
 */
import type { Deps } from '../deps';
import { todayIso } from '../kernel/engine/dates';
import type { RequestScope, ToolContext } from './tool';

/** The context of one call: the stores, and the moment and day requests are judged against (read once). */
export function toolContext(deps: Deps, request: RequestScope): ToolContext {
  const now = deps.clock();
  return { deps, request, now, today: todayIso(now) };
}
