/**
 * The GET API under /api/public, derived from the registry: each tool with a `get` route gets
 * one, with query strings renamed (spec: `check_in` → `start_date`, …) and coerced by the
 * tool's own JSON Schema.
 */
import Router from '@koa/router';
import type { Deps } from '../../deps';
import { badRequest } from '../../kernel/errors';
import { invokeTool } from '../../tools/invoke';
import type { AnyTool, GetRoute } from '../../tools/tool';
import type { Validators } from '../../tools/validate';

/** Query string → tool arguments; an unknown parameter is an error, never silently dropped. */
export function queryToArgs(
  route: GetRoute,
  query: Record<string, string | string[] | undefined>,
  params: Record<string, string>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const renamed = route.renames && Object.hasOwn(route.renames, key) ? route.renames[key] : undefined;
    const name = renamed ?? (route.query.includes(key) ? key : undefined);
    if (!name) {
      const accepted = [...Object.keys(route.renames ?? {}), ...route.query];
      throw badRequest(
        'unknown_parameter',
        `Unknown query parameter "${key}". Accepted: ${accepted.length ? accepted.join(', ') : 'none'}.`,
      );
    }
    if (name in args) throw badRequest('invalid_parameters', `"${key}" is given twice (or under two names).`);
    args[name] = value;
  }
  for (const [param, name] of Object.entries(route.pathParams ?? {})) {
    if (params[param] !== undefined) args[name] = params[param];
  }
  return args;
}

export function getRoutes(tools: readonly AnyTool[], validators: Validators, deps: Deps): Router {
  const router = new Router();
  for (const tool of tools) {
    const route = tool.get;
    if (!route) continue;
    const validate = validators.coercing.get(tool.name);
    if (!validate) throw new Error(`no validator for ${tool.name}`);
    router.get(route.path, async (ctx) => {
      const args = queryToArgs(route, ctx.query, ctx.params as Record<string, string>);
      const result = await invokeTool(tool, validate, args, deps);
      ctx.body = result.data;
    });
  }
  return router;
}
