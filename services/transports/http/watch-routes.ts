/**
 * The watches' own routes under /api/public (docs/contract.md, "watch_search_tool"): POST /watches
 * saves one (watch_search_tool's handler, its JSON body read within the body limit), GET
 * /watches/{token}/changes pages its changes, GET …/atom serves them as Atom and DELETE
 * /watches/{token} ends it. A token is looked up by its hash: unknown or ended, 404 alike.
 */
import Router, { type RouterContext } from '@koa/router';
import getRawBody from 'raw-body';
import type { Deps } from '../../deps';
import { ApiError, badRequest } from '../../kernel/errors';
import { todayIso } from '../../kernel/engine/dates';
import { toolContext } from '../../tools/invoke';
import type { Tool } from '../../tools/tool';
import { atomFeed } from '../../watches/atom';
import { changeView } from '../../watches/change-view';
import { feedPage } from '../../watches/feed';
import { watchLinks } from '../../watches/links';
import { changesBetween, committedChanges, endWatch, liveWatch } from '../../watches/store';
import { unindexWatch } from '../../watches/watch-index';
import { scopeOf } from './request-scope';

/** The path under /api/public the watches live under (the public API's only writes). */
export const WATCHES_PATH = '/watches';

const ATOM_ENTRIES = 50;

async function jsonBody(ctx: RouterContext, limit: number): Promise<unknown> {
  let raw: string;
  try {
    raw = await getRawBody(ctx.req, { limit, length: ctx.get('Content-Length') || undefined, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw new ApiError('payload_too_large', `Request body over ${limit} bytes.`, 413);
    throw err;
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('invalid_parameters', 'The body is not valid JSON: send the arguments of watch_search_tool as a JSON object.');
  }
}

export function watchRoutes(deps: Deps, tool: Tool): Router {
  const router = new Router({ sensitive: true, strict: true });
  const today = (): string => todayIso(deps.clock());
  router.post(WATCHES_PATH, async (ctx) => {
    const body = await jsonBody(ctx, deps.config.bodyLimitBytes);
    const answer = await tool.call(body, 'json', toolContext(deps, scopeOf(ctx, 'http')));
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer.data;
  });
  router.get(`${WATCHES_PATH}/:token/changes`, async (ctx) => {
    const watch = await liveWatch(deps.mongo, ctx.params.token, today());
    const cursor = typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined;
    const unknown = Object.keys(ctx.query).filter((k) => k !== 'cursor');
    if (unknown.length) throw badRequest('unknown_parameter', `Unknown query parameter "${unknown[0]}". Accepted: cursor.`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...(await feedPage(deps.mongo, watch, cursor)), unwatch_url: watchLinks(deps.config.publicBaseUrl, ctx.params.token).unwatch_url };
  });
  router.get(`${WATCHES_PATH}/:token/atom`, async (ctx) => {
    const watch = await liveWatch(deps.mongo, ctx.params.token, today());
    const committed = committedChanges(watch);
    const latest = await changesBetween(deps.mongo, watch._id, Math.max(1, committed - ATOM_ENTRIES + 1), committed);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/atom+xml; charset=utf-8';
    ctx.body = atomFeed(watch._id, watchLinks(deps.config.publicBaseUrl, ctx.params.token), latest.reverse().map(changeView), watch.created_at);
  });
  router.delete(`${WATCHES_PATH}/:token`, async (ctx) => {
    const watch = await liveWatch(deps.mongo, ctx.params.token, today());
    if (await endWatch(deps.mongo, watch._id, 'deleted', deps.clock())) await unindexWatch(deps, watch._id);
    ctx.status = 204;
  });
  return router;
}
