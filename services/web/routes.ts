/**
 * The search page for people at `/`: a browser asking for HTML gets the page, any
 * other client the service's JSON index as before. The page's script, stylesheet and basemap, and
 * the drawing tools it fetches when a person draws, are served under /app/ by content-hashed names
 * (`page.<hash>.js`, immutable for a year: a new build is a new name, which the page's HTML gives),
 * and by their plain names with an ETag for whoever asks by those. Each is compressed once per
 * encoding (../transports/http/static-files.ts). The page itself reads only the public GET API.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../kernel/config';
import { ApiError } from '../kernel/errors';
import { IMMUTABLE, sendStatic, StaticFile } from '../transports/http/static-files';
import { pageAssets, type PageAssets } from './assets';
import { pageHtml } from './document';

interface Served {
  file: StaticFile;
  cacheControl: string;
}

/** The page and every name its files answer to, made once the bundles are built. */
interface Site {
  html: StaticFile;
  files: Map<string, Served>;
}

/** Plain names revalidate each time (no-cache; the basemap a day), hashed names never. */
const PLAIN: ReadonlyArray<[string, keyof PageAssets, string]> = [
  ['page.js', 'script', 'no-cache'],
  ['page.css', 'css', 'no-cache'],
  ['draw.js', 'drawScript', 'no-cache'],
  ['draw.css', 'drawCss', 'no-cache'],
  ['us-states.json', 'basemap', 'public, max-age=86400'],
];

function siteOf(assets: PageAssets, config: Pick<Config, 'mapTileUrl' | 'mapTileAttribution'>): Site {
  const files = new Map<string, Served>();
  const href = (name: string, key: keyof PageAssets): string => `/app/${assets[key].hashedName(name)}`;
  for (const [name, key, cacheControl] of PLAIN) {
    files.set(name, { file: assets[key], cacheControl });
    files.set(assets[key].hashedName(name), { file: assets[key], cacheControl: IMMUTABLE });
  }
  const html = pageHtml(config, {
    script: href('page.js', 'script'),
    css: href('page.css', 'css'),
    drawScript: href('draw.js', 'drawScript'),
    drawCss: href('draw.css', 'drawCss'),
    basemap: href('us-states.json', 'basemap'),
  });
  return { html: new StaticFile(html, 'text/html; charset=utf-8'), files };
}

export function mountPage(root: Router, config: Pick<Config, 'mapTileUrl' | 'mapTileAttribution'>, index: (ctx: Context) => void): void {
  let site: Promise<Site> | undefined;
  // Built with the bundles it names; a failed build is tried again by the next request (assets.ts).
  const built = (): Promise<Site> => {
    site ??= pageAssets().then(
      (assets) => siteOf(assets, config),
      (err: unknown) => {
        site = undefined;
        throw err;
      },
    );
    return site;
  };
  root.get('/', async (ctx) => {
    if (ctx.accepts('json', 'html') !== 'html') return index(ctx);
    sendStatic(ctx, (await built()).html, 'no-cache');
  });
  root.get('/app/:file', async (ctx) => {
    const served = (await built()).files.get(ctx.params.file);
    if (!served) throw new ApiError('not_found', 'No such file.', 404);
    sendStatic(ctx, served.file, served.cacheControl);
  });
}
