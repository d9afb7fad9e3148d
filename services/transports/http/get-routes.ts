/**
 * The GET API under /api/public, derived from the registry: each tool with a `get` route gets
 * one, with query strings renamed (docs/contract.md, "HTTP routes": `check_in` → `start_date`, …) and coerced by the
 * tool's own JSON Schema.
 */
import Router from '@koa/router';
import type { Deps } from '../../deps';
import { ApiError, badRequest } from '../../kernel/errors';
import { toolContext } from '../../tools/invoke';
import { scopeOf } from './request-scope';
import { inGetWords, type Tool, type GetRoute } from '../../tools/tool';

/**
 * Sets the argument a parameter names: a top-level name, or a dotted path into an object argument (the
 * GET `display_city` is the tool's `scope.display_city`). False when the argument is already set.
 */
function setArgument(args: Record<string, unknown>, name: string, value: unknown): boolean {
  const path = name.split('.');
  const last = path.pop()!;
  let at = args;
  for (const part of path) {
    const inner = Object.hasOwn(at, part) ? at[part] : undefined;
    if (inner === undefined) at = at[part] = {};
    else if (typeof inner === 'object' && inner !== null) at = inner as Record<string, unknown>;
    else return false;
  }
  if (Object.hasOwn(at, last)) return false;
  at[last] = value;
  return true;
}

/** Query string → tool arguments; an unknown parameter is an error, never silently dropped. */
export function queryToArgs(route: GetRoute, query: Record<string, string | string[] | undefined>, params: Record<string, string>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const renamed = route.renames && Object.hasOwn(route.renames, key) ? route.renames[key] : undefined;
    const name = renamed ?? (route.query.includes(key) ? key : undefined);
    if (!name) {
      const accepted = [...Object.keys(route.renames ?? {}), ...route.query];
      throw badRequest('unknown_parameter', `Unknown query parameter "${key}". Accepted: ${accepted.length ? accepted.join(', ') : 'none'}.`);
    }
    // A parameter of its own text form (a polygon) is decoded here; the tool's schema then reads the argument.
    const encoding = route.encoded && Object.hasOwn(route.encoded, name) ? route.encoded[name] : undefined;
    if (encoding && typeof value !== 'string') throw badRequest('invalid_parameters', `"${key}" is given more than once.`);
    // A dotted name sets a property of an object argument, which the schema checks as a whole: a repeated value is refused here.
    if (name.includes('.') && typeof value !== 'string') throw badRequest('invalid_parameters', `"${key}" is given more than once; it takes one value.`);
    if (!setArgument(args, name, encoding ? encoding.decode(value as string) : value)) {
      throw badRequest('invalid_parameters', `"${key}" is given twice (or under two names).`);
    }
  }
  for (const [param, name] of Object.entries(route.pathParams ?? {})) {
    if (params[param] !== undefined) args[name] = params[param];
  }
  return args;
}

/**
 * A GET caller's error in the GET parameter names: "check_in", not the tool's "start_date" (the
 * tool names appear in the rules the handlers share). Only whole words that are renamed change.
 */
export function inGetNames(route: GetRoute): (err: ApiError) => ApiError {
  const words = inGetWords(route);
  return (err) => {
    const message = words(err.message);
    return message === err.message ? err : new ApiError(err.code, message, err.status, err.headers);
  };
}

/**
 * A GET search that names no place at all is told the GET parameters that name one (the tool's own
 * message names its `scope`, which GET does not take); a place named in part is left to the tool.
 */
function requirePlace(route: GetRoute, query: Record<string, unknown>): void {
  const groups = route.requiredOneOf;
  if (!groups || groups.some((g) => g.some((p) => query[p] !== undefined))) return;
  const named = groups.map((g) => g.join(' + '));
  throw badRequest('invalid_parameters', `A place is required: give ${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}.`);
}

export function getRoutes(tools: readonly Tool[], deps: Deps): Router {
  const router = new Router({ sensitive: true, strict: true });
  for (const tool of tools) {
    const route = tool.get;
    if (!route) continue;
    const speakGet = inGetNames(route);
    router.get(route.path, async (ctx) => {
      const args = queryToArgs(route, ctx.query, ctx.params as Record<string, string>);
      requirePlace(route, ctx.query);
      try {
        ctx.body = (await tool.call(args, 'query', toolContext(deps, scopeOf(ctx, 'http')))).data;
      } catch (err) {
        throw err instanceof ApiError ? speakGet(err) : err;
      }
    });
  }
  return router;
}
