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
import type { Tool, GetRoute } from '../../tools/tool';

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
    if (name in args) throw badRequest('invalid_parameters', `"${key}" is given twice (or under two names).`);
    // A parameter of its own text form (a polygon) is decoded here; the tool's schema then reads the argument.
    const encoding = route.encoded && Object.hasOwn(route.encoded, name) ? route.encoded[name] : undefined;
    if (!encoding) args[name] = value;
    else if (typeof value === 'string') args[name] = encoding.decode(value);
    else throw badRequest('invalid_parameters', `"${key}" is given more than once.`);
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
  const toGet = new Map<string, string>();
  for (const [getName, toolName] of Object.entries(route.renames ?? {})) toGet.set(toolName, getName);
  for (const [param, toolName] of Object.entries(route.pathParams ?? {})) toGet.set(toolName, param);
  if (toGet.size === 0) return (err) => err;
  const words = new RegExp(`\\b(${[...toGet.keys()].join('|')})\\b`, 'g');
  return (err) => {
    const message = err.message.replace(words, (w) => toGet.get(w) ?? w);
    return message === err.message ? err : new ApiError(err.code, message, err.status, err.headers);
  };
}

export function getRoutes(tools: readonly Tool[], deps: Deps): Router {
  const router = new Router({ sensitive: true, strict: true });
  for (const tool of tools) {
    const route = tool.get;
    if (!route) continue;
    const speakGet = inGetNames(route);
    router.get(route.path, async (ctx) => {
      const args = queryToArgs(route, ctx.query, ctx.params as Record<string, string>);
      try {
        ctx.body = (await tool.call(args, 'query', toolContext(deps, scopeOf(ctx, 'http')))).data;
      } catch (err) {
        throw err instanceof ApiError ? speakGet(err) : err;
      }
    });
  }
  return router;
}
