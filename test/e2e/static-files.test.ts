/**
 * The page's files and the photos (web/routes.ts, transports/http/static-files.ts, media/photos.ts):
 * each encoding of a file compressed once and kept, the bundles under content-hashed immutable names
 * that the page's HTML gives, an ETag and a 304 for the plain names, a budget of their own per client,
 * and a photo MongoDB does not have asked of it once.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { CommandStartedEvent } from 'mongodb';
import { request } from 'undici';
import { startService, type RunningService } from '../../services/main';
import { IMMUTABLE, staticCompressions } from '../../services/transports/http/static-files';
import { mongoUrlWithCommandEvents, startFixture, testConfig, type Fixture } from '../support/fixture';

let fx: Fixture;
const others: RunningService[] = [];

beforeAll(async () => {
  // The photo test counts the service's reads by the driver's command events.
  fx = await startFixture({ homes: 10, env: { MONGO_URL: mongoUrlWithCommandEvents() } });
}, 120_000);

afterAll(async () => {
  for (const svc of others) await svc.close();
  await fx?.close();
});

/** One GET as a cache sees it: the bytes on the wire, not decoded. */
async function raw(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const header = (name: string): string | undefined => {
    const v = res.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return { status: res.statusCode, bytes, header };
}

describe('GET /app/*: compressed once', () => {
  it('compresses each encoding of a file once: a second request for it costs no compression and sends the same bytes', async () => {
    const plain = await raw(`${fx.url}/app/us-states.json`);
    expect(plain.status).toBe(200);
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const before = staticCompressions();
      const first = await raw(`${fx.url}/app/us-states.json`, { 'accept-encoding': coding });
      expect(staticCompressions()).toBe(before + 1);
      const second = await raw(`${fx.url}/app/us-states.json`, { 'accept-encoding': coding });
      expect(staticCompressions()).toBe(before + 1);
      expect(first.header('content-encoding')).toBe(coding);
      expect(second.bytes.equals(first.bytes)).toBe(true);
      expect(decode(second.bytes).equals(plain.bytes)).toBe(true);
      expect(second.bytes.length).toBeLessThan(plain.bytes.length / 2);
    }
    // The same count is on the admin port's /metrics.
    const metrics = await (await fetch(`${fx.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^catalog_static_compressions_total ${staticCompressions()}$`, 'm'));
  });
});

describe('GET /: the page names its files by content hash', () => {
  it('references hashed bundles, which answer immutable with the same bytes as the plain names', async () => {
    const page = await raw(`${fx.url}/`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    const html = page.bytes.toString('utf8');
    const names = {
      'page.js': /<script src="\/app\/(page\.[0-9a-f]{12}\.js)"/.exec(html)?.[1],
      'page.css': /<link rel="stylesheet" href="\/app\/(page\.[0-9a-f]{12}\.css)"/.exec(html)?.[1],
      'draw.js': /<meta name="draw-script" content="\/app\/(draw\.[0-9a-f]{12}\.js)"/.exec(html)?.[1],
      'draw.css': /<meta name="draw-css" content="\/app\/(draw\.[0-9a-f]{12}\.css)"/.exec(html)?.[1],
      'us-states.json': /<meta name="basemap" content="\/app\/(us-states\.[0-9a-f]{12}\.json)"/.exec(html)?.[1],
    };
    for (const [plainName, hashed] of Object.entries(names)) {
      expect({ plainName, hashed }).toEqual({ plainName, hashed: expect.any(String) });
      const kept = await raw(`${fx.url}/app/${hashed}`);
      expect({ hashed, status: kept.status, cc: kept.header('cache-control') }).toEqual({ hashed, status: 200, cc: IMMUTABLE });
      const plain = await raw(`${fx.url}/app/${plainName}`);
      expect(kept.bytes.equals(plain.bytes)).toBe(true);
      expect(plain.header('cache-control')).not.toContain('immutable');
      expect(kept.header('etag')).toBe(plain.header('etag'));
    }
    // A name no build made is a 404 with the error object, not a file.
    const unknown = await raw(`${fx.url}/app/page.000000000000.js`);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.bytes.toString('utf8')).error.code).toBe('not_found');
  });

  it('answers 304 without a body to an If-None-Match naming the ETag, in any encoding', async () => {
    for (const path of ['/app/us-states.json', '/app/page.js', '/']) {
      const first = await raw(`${fx.url}${path}`, { accept: 'text/html', 'accept-encoding': 'br' });
      const etag = first.header('etag');
      expect(etag).toMatch(/^"/);
      const again = await raw(`${fx.url}${path}`, { accept: 'text/html', 'accept-encoding': 'gzip', 'if-none-match': etag ?? '' });
      expect({ path, status: again.status, length: again.bytes.length }).toEqual({ path, status: 304, length: 0 });
    }
  });
});

describe('GET /media/:file', () => {
  it('asks MongoDB once for a photo it does not have, however often it is asked', async () => {
    const client = fx.svc.deps.db.client;
    const finds: string[] = [];
    const onCommand = (e: CommandStartedEvent): void => {
      if (e.commandName === 'find' && e.command.find === 'photos') finds.push(String((e.command.filter as { _id?: unknown })._id));
    };
    client.on('commandStarted', onCommand);
    try {
      const missing = `no-such-photo-${Date.now()}`;
      for (let i = 0; i < 3; i++) {
        const r = await raw(`${fx.url}/media/${missing}.jpg`);
        expect(r.status).toBe(404);
        expect(JSON.parse(r.bytes.toString('utf8')).error.code).toBe('not_found');
      }
      expect(finds.filter((id) => id === missing)).toHaveLength(1);
    } finally {
      client.off('commandStarted', onCommand);
    }
  });
});

describe('the budget of the page files and photos', () => {
  it('refuses a flood of files from one client with 429 after its budget, and leaves its API budget whole', async () => {
    const svc = await startService(
      testConfig({
        MONGO_DB: fx.config.mongoDb,
        HOMES_ALIAS: fx.config.homesAlias,
        RATE_LIMIT_STATIC_POINTS: '5',
        RATE_LIMIT_POINTS: '5',
        RATE_LIMIT_SHARED: 'false',
      }),
    );
    others.push(svc);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await raw(`${svc.url}/app/us-states.json`, { 'accept-encoding': 'br' })).status);
    statuses.push((await raw(`${svc.url}/media/no-such-photo.jpg`)).status);
    const refused = await raw(`${svc.url}/app/page.js`);
    expect(statuses).toEqual([200, 200, 200, 200, 404]);
    expect(refused.status).toBe(429);
    expect(Number(refused.header('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(refused.bytes.toString('utf8')).error.code).toBe('rate_limited');
    expect((await raw(`${svc.url}/media/no-such-photo.jpg`)).status).toBe(429);
    // The API's own budget was not spent by the files.
    expect((await raw(`${svc.url}/api/public/policies-faq`)).status).toBe(200);
  });
});
