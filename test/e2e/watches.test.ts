/**
 * Saving a watch (watch_search_tool through the SDK's MCP client, and POST /api/public/watches) and
 * reading it (its JSON feed paged by cursor, its Atom feed, DELETE) on the real stores and HTTP: the
 * answer's fields, the token kept only as a hash, the refusals (no consent, webhook URLs that are not
 * https or resolve to loopback, private or link-local addresses, the eleventh live watch of an email,
 * a search the search refuses) and the 404 of an unknown or ended token.
 */
import { createHash } from 'node:crypto';
import { startFixture, busiestCity, type Fixture } from '../support/fixture';
import { appendChanges } from '../../services/watches/store';
import { watchIndexOf } from '../../services/watches/watch-index';
import { matchWatchesFor } from '../../services/tools/watch-matching-run';
import { watchedMatches } from '../../services/tools/watched-search';
import { eraseGuest } from '../../services/booking-intents/erase';

let fx: Fixture;
let city: string;

beforeAll(async () => {
  fx = await startFixture({ homes: 60, env: { WATCH_WEBHOOK_ALLOW_HOSTS: 'receiver.localhost' } });
  city = await busiestCity(fx);
});
afterAll(async () => {
  await fx?.close();
});

async function watchCall(args: Record<string, unknown>) {
  const client = await fx.mcp();
  return client.callTool({ name: 'watch_search_tool', arguments: args });
}

async function refusal(args: Record<string, unknown>): Promise<{ code: string; message: string }> {
  const result = await watchCall(args);
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
}

async function post(body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${fx.url}/api/public/watches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const valid = (email: string, extra: Record<string, unknown> = {}) => ({ search: { market: city }, email, guest_consent: true, ...extra });

describe('watch_search_tool', () => {
  it('saves a watch and answers its id, a 128-bit token kept only as a hash, its feeds and the search’s count', async () => {
    const result = await watchCall(valid('saver@example.com'));
    expect(result.isError).toBeFalsy();
    const w = result.structuredContent as Record<string, any>;
    expect(Buffer.from(w.token, 'base64url')).toHaveLength(16);
    expect(w.feed_url).toBe(`${fx.config.publicBaseUrl}/api/public/watches/${w.token}/changes`);
    expect(w.atom_url).toBe(`${fx.config.publicBaseUrl}/api/public/watches/${w.token}/atom`);
    const search = (await fx.get(`/api/public/search?market=${city}`)).body;
    expect(w.total_count).toBe(search.total_count);
    expect(w.webhook_secret).toBeUndefined();
    const record = await fx.mongo.collections.watches.findOne({ _id: w.watch_id });
    expect(record?.token_hash).toBe(createHash('sha256').update(w.token).digest('hex'));
    expect(JSON.stringify(record)).not.toContain(w.token);
    // The undated search's default: 90 days.
    const expected = new Date(Date.parse(fx.today) + 90 * 86_400_000).toISOString().slice(0, 10);
    expect(w.expires_on).toBe(expected);
    // What the search matches now is kept for the diff, not reported.
    const page = (await fx.get(`/api/public/watches/${w.token}/changes`)).body;
    expect(page.changes).toEqual([]);
    expect(page.has_more).toBe(false);
  });

  it('is saved by POST /api/public/watches too, with a webhook secret shown once', async () => {
    const res = await post(valid('poster@example.com', { webhook_url: 'http://receiver.localhost:9/hook' }));
    expect(res.status).toBe(201);
    expect(res.body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it('refuses without consent, saving nothing', async () => {
    expect((await refusal(valid('noconsent@example.com', { guest_consent: false }))).code).toBe('consent_required');
    expect(await fx.mongo.collections.watches.countDocuments({ email: 'noconsent@example.com' })).toBe(0);
  });

  it('refuses a search the apartment search refuses', async () => {
    expect((await refusal({ ...valid('bad@example.com'), search: { market: city, per_page: 10 } })).code).toBe('unknown_parameter');
    expect((await refusal({ ...valid('bad@example.com'), search: { market: 'atlantis' } })).code).toBe('market_not_found');
    expect((await refusal({ ...valid('bad@example.com'), search: { market: city, start_date: '1999-01-01', end_date: '1999-02-01' } })).code).toMatch(
      /invalid_date|invalid_parameters/,
    );
  });

  it.each([
    ['http://example.com/hook', /https/],
    ['https://127.0.0.1/hook', /loopback/],
    ['https://[::1]/hook', /loopback/],
    ['https://10.1.2.3/hook', /private/],
    ['https://192.168.0.10/hook', /private/],
    ['https://169.254.169.254/latest', /linkLocal/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['https://localhost/hook', /loopback/],
    ['https://user:pw@receiver.localhost/hook', /credentials/],
  ])('refuses the webhook URL %s', async (url, why) => {
    const error = await refusal(valid('hooks@example.com', { webhook_url: url }));
    expect(error.code).toBe('invalid_parameters');
    expect(error.message).toMatch(why);
  });

  it('refuses the eleventh live watch of one email, and takes one again once a watch is ended', async () => {
    const email = 'many@example.com';
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push((await post(valid(email))).body.token);
    const eleventh = await post(valid(email.toUpperCase()));
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.error.code).toBe('too_many_watches');
    expect((await fetch(`${fx.url}/api/public/watches/${tokens[0]}`, { method: 'DELETE' })).status).toBe(204);
    expect((await post(valid(email))).status).toBe(201);
  });
});

describe('where agents see it', () => {
  it('the find_a_stay prompt offers a watch when a search finds nothing, and the documents describe the tool and its routes', async () => {
    const prompt = await (await fx.mcp()).getPrompt({ name: 'find_a_stay', arguments: { place: 'Austin' } });
    expect((prompt.messages[0].content as { text: string }).text).toMatch(/finds nothing.*watch_search_tool/);
    const tools = (await fx.get('/api/public/tools.json')).body.tools as Array<{ name: string; inputSchema: any }>;
    const tool = tools.find((t) => t.name === 'watch_search_tool')!;
    expect(tool.inputSchema.required).toEqual(['search', 'email', 'guest_consent']);
    expect(Object.keys(tool.inputSchema.properties.search.properties)).toEqual(expect.arrayContaining(['market', 'start_date', 'max_price', 'polygon']));
    expect(tool.inputSchema.properties.search.properties.page).toBeUndefined();
    expect((await fx.get('/api/public/tools')).body).toContain('watch_search_tool');
    const openapi = (await fx.get('/api/public/openapi.json')).body;
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/api/public/watches', '/api/public/watches/{token}/changes', '/api/public/watches/{token}/atom', '/api/public/watches/{token}']),
    );
  });
});

describe('the feed', () => {
  it('pages changes in order with an opaque cursor, each change_id once, and the same ids when asked again', async () => {
    const w = (await post(valid('feed@example.com'))).body;
    const changes = Array.from({ length: 120 }, (_, i) => ({ kind: 'left' as const, home_slug: `home-${i}`, price: null, card: null }));
    await appendChanges(fx.mongo.collections, w.watch_id, changes.slice(0, 70), new Date());
    await appendChanges(fx.mongo.collections, w.watch_id, changes.slice(70), new Date());
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    for (;;) {
      const page = (await fx.get(`/api/public/watches/${w.token}/changes${cursor ? `?cursor=${cursor}` : ''}`)).body;
      sizes.push(page.changes.length);
      seen.push(...page.changes.map((c: { change_id: string; home_slug: string }) => c.home_slug));
      const again = (await fx.get(`/api/public/watches/${w.token}/changes${cursor ? `?cursor=${cursor}` : ''}`)).body;
      expect(again.changes.map((c: { change_id: string }) => c.change_id)).toEqual(page.changes.map((c: { change_id: string }) => c.change_id));
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    expect(sizes).toEqual([50, 50, 20]);
    expect(seen).toEqual(changes.map((c) => c.home_slug));
    // Polling past the end: nothing new, the same cursor back.
    const tail = (await fx.get(`/api/public/watches/${w.token}/changes?cursor=${cursor}`)).body;
    expect(tail).toMatchObject({ changes: [], has_more: false, next_cursor: cursor });
    expect((await fx.get(`/api/public/watches/${w.token}/changes?cursor=garbage`)).status).toBe(400);

    const atom = await fetch(`${fx.url}/api/public/watches/${w.token}/atom`);
    expect(atom.headers.get('content-type')).toMatch(/application\/atom\+xml/);
    const xml = await atom.text();
    expect(xml.match(/<entry>/g)).toHaveLength(50);
    expect(xml).toContain(`<id>urn:watch-change:${w.watch_id}.120</id>`);
    expect(xml).toContain('rel="unwatch"');
  });

  it('answers an unknown or ended token 404 with the error object', async () => {
    const unknown = await fx.get('/api/public/watches/AAAAAAAAAAAAAAAAAAAAAA/changes');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('watch_not_found');
    const w = (await post(valid('ender@example.com'))).body;
    expect((await fetch(`${fx.url}/api/public/watches/${w.token}`, { method: 'DELETE' })).status).toBe(204);
    for (const path of [`/api/public/watches/${w.token}/changes`, `/api/public/watches/${w.token}/atom`]) {
      const res = await fx.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'watch_not_found', message: expect.any(String) } });
    }
    expect((await fetch(`${fx.url}/api/public/watches/${w.token}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('an erased guest', () => {
  it('leaves the reverse search and the homes it held at the next matching of a home its watch would have met', async () => {
    const saved = await post(valid('erased-watcher@example.com'));
    expect(saved.status).toBe(201);
    const index = watchIndexOf(fx.config.homesAlias);
    const indexed = () => fx.es.exists({ index, id: saved.body.watch_id });
    expect(await indexed()).toBe(true);
    const { matches } = await watchedMatches(fx.svc.deps, { market: city }, fx.today);
    const holders = async () => Object.keys((await fx.mongo.collections.watchMatches.findOne({ _id: matches[0].homeId }))?.held ?? {});
    expect(await holders()).toContain(saved.body.watch_id);
    await eraseGuest(fx.mongo.collections, 'erased-watcher@example.com');
    await matchWatchesFor(fx.svc.deps, [matches[0].homeId], new Date());
    expect(await indexed()).toBe(false);
    expect(await holders()).not.toContain(saved.body.watch_id);
  });
});
