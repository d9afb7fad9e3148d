/**
 * Headers that tell a browser what it may do with an answer (docs/operations.md, "Security headers"):
 * `X-Content-Type-Options: nosniff` on every answer; on the search page and its files (`/`, `/app/*`)
 * a Content-Security-Policy that allows only what the page loads (its own script, stylesheet and
 * data, the photos, and the tiles of MAP_TILE_URL when set), never in a frame, and a Referrer-Policy
 * that gives other sites the origin only (the page's query names a place and dates).
 * The widgets are not served here: their policy is the `_meta.ui.csp` of their MCP resource.
 */
import type { Context, Middleware, Next } from 'koa';
import type { Config } from '../../kernel/config';

const HOST = /^(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d+)?$/;

/**
 * The CSP source of a tile URL template: its scheme and host, a `{s}` subdomain label as `*`
 * (`https://{s}.tile.example.org/{z}/{x}/{y}.png` → `https://*.tile.example.org`); null when unset.
 */
export function tileSource(template: string): string | null {
  if (template === '') return null;
  const m = /^(https?):\/\/([^/?#]+)/i.exec(template);
  const labels = m ? m[2].split('.').map((label, i) => (label.includes('{') && i === 0 ? '*' : label)) : [];
  const host = labels.join('.');
  if (!m || !HOST.test(host)) {
    throw new Error(`MAP_TILE_URL must be an http(s) tile URL whose host is fixed but for a leading {s} label, got "${template}"`);
  }
  return `${m[1].toLowerCase()}://${host.toLowerCase()}`;
}

/** The page's policy: everything it needs by name, nothing else (no inline script or style, no frames). */
export function pageCsp(config: Pick<Config, 'mapTileUrl' | 'publicBaseUrl'>): string {
  const images = ["'self'", 'data:', new URL(config.publicBaseUrl).origin, tileSource(config.mapTileUrl)];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${[...new Set(images.filter((s): s is string => s !== null))].join(' ')}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const isPage = (path: string): boolean => path === '/' || path.startsWith('/app/');

export function securityHeaders(config: Pick<Config, 'mapTileUrl' | 'publicBaseUrl'>): Middleware {
  const csp = pageCsp(config);
  return async function setSecurityHeaders(ctx: Context, next: Next): Promise<void> {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (isPage(ctx.path)) {
      ctx.set('Content-Security-Policy', csp);
      ctx.set('X-Frame-Options', 'DENY');
      ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    }
    await next();
  };
}
