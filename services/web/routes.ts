/**
 * The search page for people at `/`: a browser asking for HTML gets the page, any
 * other client the service's JSON index as before. The page's script, stylesheet and basemap, and
 * the drawing tools it fetches when a person draws, are served under /app/; the page itself reads
 * only the public GET API.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../kernel/config';
import { pageAssets } from './assets';
import { pageHtml } from './document';

export function mountPage(root: Router, config: Pick<Config, 'mapTileUrl' | 'mapTileAttribution'>, index: (ctx: Context) => void): void {
  const html = pageHtml(config);
  root.get('/', (ctx) => {
    if (ctx.accepts('json', 'html') !== 'html') return index(ctx);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = html;
  });
  root.get('/app/page.js', async (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = (await pageAssets()).script;
  });
  root.get('/app/page.css', async (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = (await pageAssets()).css;
  });
  root.get('/app/draw.js', async (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = (await pageAssets()).drawScript;
  });
  root.get('/app/draw.css', async (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = (await pageAssets()).drawCss;
  });
  root.get('/app/us-states.json', async (ctx) => {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = (await pageAssets()).basemap;
  });
}
