/**
 * What caches, proxies and browsers are told (transports/http/caching.ts, compression.ts,
 * security-headers.ts): validators and Cache-Control on the public API, 304 on a matching
 * If-None-Match, no-store on errors, brotli and gzip bodies that decode to the same JSON, and the
 * search page's Content-Security-Policy, in headless Chromium with the page working under it.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import entityTag from 'etag';
import { request } from 'undici';
import { addDays } from '../../services/kernel/engine/dates';
import { pageCsp, tileSource } from '../../services/transports/http/security-headers';
import { CHROMIUM_HINT, findChromium } from '../support/chromium';
import { startFixture, type Fixture } from '../support/fixture';
import { rendered, waitUntil } from '../support/search-page';
import { jsonRpcMessage } from '../support/json-rpc-answer';
import { openBrowser } from '../support/browser';

let fx: Fixture;
let search: string;

interface Raw {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/** One GET as a cache sees it: the bytes on the wire, not decoded. */
async function raw(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const res = await request(fx.url + path, { headers });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return { status: res.statusCode, headers: flat, bytes };
}

const varyOf = (r: Raw): string[] => (r.headers.vary ?? '').split(',').map((s) => s.trim().toLowerCase());

beforeAll(async () => {
  fx = await startFixture({ homes: 150 });
  const { body } = await fx.get('/api/public/markets');
  const checkIn = addDays(fx.today, 20);
  search = `/api/public/search?${new URLSearchParams({ market: body.markets[0].slug, check_in: checkIn, check_out: addDays(checkIn, 30), per_page: '25' })}`;
});

afterAll(async () => {
  await fx?.close();
});

describe('validators and Cache-Control on the public API', () => {
  it('tags a search answer with a strong ETag of its bytes and a public max-age from the config', async () => {
    const r = await raw(search);
    expect(r.status).toBe(200);
    expect(r.headers.etag).toBe(entityTag(r.bytes));
    expect(r.headers.etag).not.toMatch(/^W\//);
    const { maxAgeSeconds, staleWhileRevalidateSeconds } = fx.config.httpCache;
    expect(r.headers['cache-control']).toBe(`public, max-age=${maxAgeSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}`);
  });

  it('answers 304 without a body to an If-None-Match naming the current ETag, and 200 to a stale one', async () => {
    for (const path of [search, '/api/public/openapi.json', '/api/public/tools', '/.well-known/mcp/server-card.json']) {
      const first = await raw(path);
      expect(first.headers.etag).toBe(entityTag(first.bytes));
      const again = await raw(path, { 'If-None-Match': first.headers.etag });
      expect({ path, status: again.status, length: again.bytes.length }).toEqual({ path, status: 304, length: 0 });
      expect(again.headers.etag).toBe(first.headers.etag);
      if (path.startsWith('/api/public/')) expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      const stale = await raw(path, { 'If-None-Match': '"0-stale"' });
      expect(stale.status).toBe(200);
    }
  });

  it('tags a text body its handler leaves untagged (the page) by its bytes, and answers 304 to that tag', async () => {
    const html = { Accept: 'text/html' };
    const first = await raw('/', html);
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(first.headers.etag).toBe(entityTag(first.bytes));
    const again = await raw('/', { ...html, 'If-None-Match': first.headers.etag });
    expect({ status: again.status, length: again.bytes.length }).toEqual({ status: 304, length: 0 });
    expect((await raw('/', { ...html, 'If-None-Match': '"0-stale"' })).status).toBe(200);
  });

  it('tells caches to keep no error answer: no-store on a 400, a 404 and a 405', async () => {
    for (const [path, status] of [
      ['/api/public/markets?colour=blue', 400],
      ['/api/public/homes/no-such-home', 404],
      ['/api/public/nowhere', 404],
    ] as const) {
      const r = await raw(path);
      expect({ path, status: r.status, cc: r.headers['cache-control'], etag: r.headers.etag }).toEqual({ path, status, cc: 'no-store', etag: undefined });
    }
    const post = await fetch(fx.url + '/api/public/markets', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('cache-control')).toBe('no-store');
  });

  it('lets a cache keep the status report only to revalidate it', async () => {
    const r = await raw('/api/public/status');
    expect(r.headers['cache-control']).toBe('no-cache');
  });
});

describe('compression', () => {
  it('sends brotli or gzip as the client asks, decoding to the same JSON, with Vary: Accept-Encoding beside Vary: Origin', async () => {
    const plain = await raw(search, { Origin: 'https://example.org' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(1024);
    const json = JSON.parse(plain.bytes.toString('utf8'));
    const cases = [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
      ['gzip, deflate, br', brotliDecompressSync],
    ] as const;
    for (const [accept, decode] of cases) {
      const r = await raw(search, { 'Accept-Encoding': accept, Origin: 'https://example.org' });
      expect(r.headers['content-encoding']).toBe(accept === 'gzip' ? 'gzip' : 'br');
      expect(r.bytes.length).toBeLessThan(plain.bytes.length / 3);
      expect(JSON.parse(decode(r.bytes).toString('utf8'))).toEqual(json);
      // One ETag for the answer whichever its encoding: it names the JSON bytes.
      expect(r.headers.etag).toBe(plain.headers.etag);
      expect(varyOf(r)).toEqual(expect.arrayContaining(['accept-encoding', 'origin']));
    }
    expect(varyOf(plain)).toEqual(expect.arrayContaining(['accept-encoding', 'origin']));
  });

  it('compresses an answer whole in one call: sent with its Content-Length, not chunked from a stream', async () => {
    for (const accept of ['br', 'gzip', 'gzip, deflate, br']) {
      const r = await raw(search, { 'Accept-Encoding': accept });
      expect(r.headers['content-encoding']).toBe(accept === 'gzip' ? 'gzip' : 'br');
      expect({ accept, length: r.headers['content-length'], chunked: r.headers['transfer-encoding'] }).toEqual({
        accept,
        length: String(r.bytes.length),
        chunked: undefined,
      });
    }
  });

  it('leaves an answer under 1 KB uncompressed', async () => {
    const r = await raw('/api/public/policies-faq?q=pets', { 'Accept-Encoding': 'br, gzip' });
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBeLessThan(1024);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(varyOf(r)).toContain('accept-encoding'); // negotiated all the same: a larger answer would be compressed
    expect(JSON.parse(r.bytes.toString('utf8')).entries[0].topic).toBe('pets');
  });

  it('compresses a tool server answer for a client that accepts it, and the SDK client reads it', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const res = await request(`${fx.url}/mcp/public`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'accept-encoding': 'gzip',
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const answer = jsonRpcMessage(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8'));
    expect(answer.result.tools.length).toBeGreaterThan(0);
    const client = await fx.mcp();
    expect((await client.listTools()).tools.length).toBe(answer.result.tools.length);
  });
});

describe('security headers', () => {
  it('sends nosniff on every answer: the API, an error, health, metrics and the tool server', async () => {
    for (const path of ['/api/public/markets', '/api/public/nowhere', '/livez', '/metrics']) {
      expect({ path, nosniff: (await raw(path)).headers['x-content-type-options'] }).toEqual({ path, nosniff: 'nosniff' });
    }
    const mcp = await fetch(`${fx.url}/mcp/public`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(mcp.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives the page and its files a CSP that forbids framing and inline code, X-Frame-Options and a Referrer-Policy', async () => {
    for (const path of ['/', '/app/page.js', '/app/page.css']) {
      const r = await raw(path, { Accept: 'text/html' });
      expect(r.status).toBe(200);
      const csp = r.headers['content-security-policy'] ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it('derives the image sources from MAP_TILE_URL, a {s} subdomain as a wildcard', () => {
    expect(tileSource('')).toBeNull();
    expect(tileSource('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toBe('https://*.tile.example.org');
    expect(tileSource('https://tiles.example.test:8443/{z}/{x}/{y}.png?key=k')).toBe('https://tiles.example.test:8443');
    expect(() => tileSource('https://tiles.{s}.example.org/{z}/{x}/{y}.png')).toThrow(/MAP_TILE_URL/);
    expect(() => tileSource('tiles/{z}/{x}/{y}.png')).toThrow(/MAP_TILE_URL/);
    const csp = pageCsp({ mapTileUrl: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', publicBaseUrl: 'https://catalog.example.com' });
    expect(csp).toContain("img-src 'self' data: https://catalog.example.com https://*.tile.example.org");
  });

  it('lets the page work under its CSP in Chromium: a search renders its list, pins and basemap with no violation', async () => {
    const executablePath = findChromium();
    if (!executablePath) throw new Error(CHROMIUM_HINT);
    const browser = await openBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
      // The page's world, where its own code meets the policy (a string: this file is compiled without the DOM's types).
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(e.effectiveDirective + ' ' + e.blockedURI))",
      );
      const response = await page.goto(fx.url + '/' + search.slice(search.indexOf('?')));
      expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await rendered(page);
      expect(await page.locator('.result').count()).toBeGreaterThan(0);
      await page.locator('.pin').first().waitFor();
      await waitUntil(page, "document.querySelectorAll('.leaflet-overlay-pane path').length > 40");
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
