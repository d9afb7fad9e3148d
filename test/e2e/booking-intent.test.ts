/**
 * booking_intent_tool, the single write, through the tool server on the real MongoDB-wire server
 * (docs/contract.md, "booking_intent_tool", "Errors"): consent, contact checks, the
 * quote's stay checks, one record per email under concurrency, the 30-day window, and no contact
 * detail in any log line.
 */
import { createHash } from 'node:crypto';
import { logSink as keptLog } from '../support/log-sink';
import { startFixture, type Fixture } from '../support/fixture';
import { addDays } from '../../services/kernel/engine/dates';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import { checkStay } from '../../services/kernel/engine/stay-check';
import { offeredTiers } from '../../services/kernel/engine/flex';
import { ensureIndexes } from '../../services/kernel/store/collections';
import { jsonRpcOf } from '../support/json-rpc-answer';

const { sink: logSink, lines: logLines } = keptLog();

let fx: Fixture;
let homes: HomeRecord[];

beforeAll(async () => {
  fx = await startFixture({ homes: 80, env: { LOG_LEVEL: 'trace' }, logDestination: logSink });
  homes = await fx.mongo.collections.homes.find({ published: true, deleted_at: null }).toArray();
});

afterAll(async () => {
  await fx?.close();
});

async function intent(args: Record<string, unknown>) {
  const client = await fx.mcp();
  return client.callTool({ name: 'booking_intent_tool', arguments: args });
}

async function saved(args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await intent(args);
  expect(result.isError).toBeFalsy();
  return result.structuredContent as Record<string, any>;
}

function failure(result: Awaited<ReturnType<typeof intent>>): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
}

const records = (email: string) => fx.mongo.collections.bookingIntents.countDocuments({ email });

/** A fixed stay the engine books, and one it does not, for some home. */
function stays(): { home: HomeRecord; bookable: { start: string; end: string }; blocked: { start: string; end: string } } {
  for (const home of homes) {
    let bookable: { start: string; end: string } | null = null;
    let blocked: { start: string; end: string } | null = null;
    for (let d = 1; d < 200 && (!bookable || !blocked); d += 3) {
      const start = addDays(fx.today, d);
      const end = addDays(start, 45);
      const ok = checkStay(home, { kind: 'fixed', start_date: start, end_date: end }, { cats: 0, dogs: 0 }, fx.today).available;
      if (ok) bookable ??= { start, end };
      else blocked ??= { start, end };
    }
    if (bookable && blocked) return { home, bookable, blocked };
  }
  throw new Error('no home with both a bookable and a blocked stay');
}

describe('booking_intent_tool consent', () => {
  it('saves nothing unless guest_consent is exactly true, and says why', async () => {
    const email = 'consent-false@example.com';
    const no = failure(await intent({ email, guest_consent: false }));
    expect(no.code).toBe('consent_required');
    expect(no.message).toMatch(/guest_consent must be true/);
    const missing = failure(await intent({ email }));
    expect(missing.message).toMatch(/guest_consent/);
    expect(missing.message).toMatch(/explicitly agreed/);
    expect(failure(await intent({ email, guest_consent: 'yes' })).message).toMatch(/guest_consent/);
    expect(await records(email)).toBe(0);
  });
});

describe('booking_intent_tool contact details', () => {
  it('requires a valid email, keeps it lower-cased, and always echoes it', async () => {
    expect(failure(await intent({ email: 'not an email', guest_consent: true })).code).toBe('invalid_parameters');
    const out = await saved({ email: 'Mixed.Case@Example.com', guest_consent: true });
    expect(out.email).toBe('mixed.case@example.com');
    expect(out.intent_id).toMatch(/^bi_/);
    expect(out.checkout_url).toBe(fx.config.checkoutBaseUrl);
    expect(await records('mixed.case@example.com')).toBe(1);
  });

  it('stores the phone in E.164, and drops an unreadable one with a warning while the intent still succeeds', async () => {
    const good = await saved({ email: 'phone-ok@example.com', phone: '(415) 555-0100', name: ' Ada Guest ', guest_consent: true });
    expect(good.phone).toBe('+14155550100');
    expect(good.name).toBe('Ada Guest');
    expect(good.warning).toBeUndefined();
    const bad = await saved({ email: 'phone-bad@example.com', phone: 'call me maybe', guest_consent: true });
    expect(bad.phone).toBeUndefined();
    expect(bad.warning).toMatch(/phone/);
    const record = await fx.mongo.collections.bookingIntents.findOne({ email: 'phone-bad@example.com' });
    expect(record?.phone).toBeNull();
  });

  it('keeps one record per email; within 30 days neither overwrites nor echoes phone and name, after 30 days updates them', async () => {
    const email = 'repeat@example.com';
    const first = await saved({ email, phone: '+14155550101', name: 'First Name', guest_consent: true });
    const second = await saved({ email, phone: '+14155550102', name: 'Second Name', guest_consent: true });
    expect(second.intent_id).toBe(first.intent_id);
    expect(second.phone).toBeUndefined();
    expect(second.name).toBeUndefined();
    expect(second.warning).toBeUndefined();
    let record = await fx.mongo.collections.bookingIntents.findOne({ email });
    expect(record).toMatchObject({ phone: '+14155550101', name: 'First Name' });
    // Move the record's contact date back past the window.
    await fx.mongo.collections.bookingIntents.updateOne({ email }, { $set: { contact_saved_at: new Date(Date.now() - 31 * 86_400_000) } });
    const third = await saved({ email, phone: '+14155550103', name: 'Third Name', guest_consent: true });
    expect(third).toMatchObject({ intent_id: first.intent_id, phone: '+14155550103', name: 'Third Name' });
    record = await fx.mongo.collections.bookingIntents.findOne({ email });
    expect(record).toMatchObject({ phone: '+14155550103', name: 'Third Name' });
    expect(await records(email)).toBe(1);
  });
});

describe('booking_intent_tool stays', () => {
  it('fills the checkout link with home and dates for a bookable stay, and leaves the dates out of a blocked one it still records', async () => {
    const { home, bookable, blocked } = stays();
    const ok = await saved({ email: 'stay-ok@example.com', home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, guest_consent: true });
    expect(ok.checkout_url).toBe(`${fx.config.checkoutBaseUrl}/${home.slug}?start_date=${bookable.start}&end_date=${bookable.end}`);
    expect(ok).toMatchObject({ home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, requested_stay: { available: true } });
    const no = await saved({ email: 'stay-blocked@example.com', home_slug: home.slug, start_date: blocked.start, end_date: blocked.end, guest_consent: true });
    expect(no.checkout_url).toBe(`${fx.config.checkoutBaseUrl}/${home.slug}`);
    // The answer says the stay cannot be booked, with the quote's reason, so an agent does not promise pre-filled dates.
    const quote = (await fx.get(`/api/public/homes/${home.slug}/quote?check_in=${blocked.start}&check_out=${blocked.end}`)).body;
    expect(no.requested_stay).toEqual({ available: false, unavailable_reason: quote.unavailable_reason });
    expect(no.warning).toBeUndefined();
    const record = await fx.mongo.collections.bookingIntents.findOne({ email: 'stay-blocked@example.com' });
    expect(record?.calls).toEqual([expect.objectContaining({ home_slug: home.slug, start_date: blocked.start, end_date: blocked.end })]);
  });

  it('refuses an unknown home, an unoffered Flex tier and "indefinite" without committed_nights, saving nothing', async () => {
    const email = 'stay-refused@example.com';
    const flexHome = homes.find((h) => offeredTiers(h).length > 0)!;
    const start = addDays(fx.today, 20);
    expect(failure(await intent({ email, home_slug: 'no-such-home', guest_consent: true })).code).toBe('home_not_found');
    expect(failure(await intent({ email, home_slug: flexHome.slug, start_date: start, end_date: 'indefinite', committed_nights: 999, guest_consent: true })).code).toBe('tier_not_offered');
    expect(failure(await intent({ email, home_slug: flexHome.slug, start_date: start, end_date: 'indefinite', guest_consent: true })).code).toBe('invalid_parameters');
    expect(failure(await intent({ email, start_date: start, end_date: addDays(start, 30), guest_consent: true })).code).toBe('invalid_parameters');
    expect(await records(email)).toBe(0);
  });
});

describe('booking_intent_tool repeat calls', () => {
  const recordOf = (email: string) => fx.mongo.collections.bookingIntents.findOne({ email });

  it("a repeat call for the same email keeps the earlier call's home and dates", async () => {
    const { home, bookable } = stays();
    const email = 'keeps-stay@example.com';
    await saved({ email, home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, guest_consent: true });
    await saved({ email, guest_consent: true });
    const record = await recordOf(email);
    expect(record?.calls.map(({ home_slug, start_date, end_date, committed_nights }) => ({ home_slug, start_date, end_date, committed_nights }))).toEqual([
      { home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, committed_nights: null },
      { home_slug: null, start_date: null, end_date: null, committed_nights: null },
    ]);
    expect(await records(email)).toBe(1);
  });

  it('keeps the last 20 calls of an email, newest last', async () => {
    const email = 'bounded@example.com';
    const slugs = homes.slice(0, 25).map((h) => h.slug);
    for (const home_slug of slugs) await saved({ email, home_slug, guest_consent: true });
    const record = await recordOf(email);
    expect(record?.calls.map((c) => c.home_slug)).toEqual(slugs.slice(-20));
  });

  it('a repeat call after 30 days adds the contact details it sends and never erases one it omits', async () => {
    const email = 'keeps-contact@example.com';
    await saved({ email, phone: '+14155550111', name: 'Kept Name', guest_consent: true });
    const past = () => fx.mongo.collections.bookingIntents.updateOne({ email }, { $set: { contact_saved_at: new Date(Date.now() - 31 * 86_400_000) } });
    await past();
    const bare = await saved({ email, guest_consent: true });
    expect(bare.phone).toBeUndefined();
    expect(await recordOf(email)).toMatchObject({ phone: '+14155550111', name: 'Kept Name' });
    const nameOnly = await saved({ email, name: 'New Name', guest_consent: true });
    expect(nameOnly).toMatchObject({ name: 'New Name' });
    expect(await recordOf(email)).toMatchObject({ phone: '+14155550111', name: 'New Name' });
    await past();
    await saved({ email, phone: 'not a phone', guest_consent: true });
    expect(await recordOf(email)).toMatchObject({ phone: '+14155550111', name: 'New Name' });
  });

  it('records with each call the consent statement, its version, the time and the transport', async () => {
    const email = 'consent-kept@example.com';
    const before = Date.now();
    await saved({ email, guest_consent: true });
    const record = await recordOf(email);
    const [call] = record!.calls;
    expect(call.at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(call.consent).toEqual({ wording: expect.stringMatching(/told which details are saved/), wording_version: expect.stringMatching(/^[0-9a-f]{12}$/), via: 'guest_consent', transport: 'mcp-2025' });
  });
});

describe('booking_intent_tool retention', () => {
  it('treats a record older than the retention period as absent and replaces it', async () => {
    const email = 'expired@example.com';
    const first = await saved({ email, phone: '+14155550121', home_slug: homes[0].slug, guest_consent: true });
    const longAgo = new Date(Date.now() - (fx.config.bookingIntents.retentionDays + 1) * 86_400_000);
    await fx.mongo.collections.bookingIntents.updateOne({ email }, { $set: { updated_at: longAgo, contact_saved_at: longAgo } });
    const again = await saved({ email, guest_consent: true });
    expect(again.intent_id).not.toBe(first.intent_id);
    const record = await fx.mongo.collections.bookingIntents.findOne({ email });
    expect(record).toMatchObject({ _id: again.intent_id, phone: null });
    expect(record?.calls).toHaveLength(1);
    expect(await records(email)).toBe(1);
  });

  it('has a TTL index on the last call with the configured period, replaced when the period changes', async () => {
    const retention = async () => (await fx.mongo.collections.bookingIntents.indexes()).filter((i) => i.name === 'retention');
    expect(await retention()).toEqual([expect.objectContaining({ key: { updated_at: 1 }, expireAfterSeconds: 365 * 86_400 })]);
    await ensureIndexes(fx.mongo.collections, { bookingIntentRetentionDays: 30 });
    expect(await retention()).toEqual([expect.objectContaining({ expireAfterSeconds: 30 * 86_400 })]);
    await ensureIndexes(fx.mongo.collections, { bookingIntentRetentionDays: 365 });
    expect(await retention()).toEqual([expect.objectContaining({ expireAfterSeconds: 365 * 86_400 })]);
  });
});

describe('booking_intent_tool under concurrency', () => {
  it('leaves one record for 50 concurrent first calls of one email, with every call kept', async () => {
    const email = 'first-race@example.com';
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => intent({ email, home_slug: homes[i % homes.length].slug, guest_consent: true })));
    expect(results.filter((r) => r.isError)).toEqual([]);
    expect(new Set(results.map((r) => (r.structuredContent as { intent_id: string }).intent_id)).size).toBe(1);
    expect(await records(email)).toBe(1);
    expect((await fx.mongo.collections.bookingIntents.findOne({ email }))?.calls).toHaveLength(20);
  });

  it('leaves exactly one record per email for 1,000 concurrent calls over 100 emails, with no 5xx', async () => {
    const calls = Array.from({ length: 1000 }, (_, i) => ({ email: `load-${i % 100}@example.com`, phone: '+1 212 555 01' + String(i % 100).padStart(2, '0'), guest_consent: true }));
    const statuses: number[] = [];
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < calls.length) {
          const args = calls[next++];
          const res = await fetch(`${fx.url}/mcp/public`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: next, method: 'tools/call', params: { name: 'booking_intent_tool', arguments: args } }),
          });
          statuses.push(res.status);
          const body = (await jsonRpcOf(res)) as { result?: { isError?: boolean; content: Array<{ text: string }> } };
          if (body.result?.isError) failures.push(body.result.content[0].text);
        }
      }),
    );
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(failures).toEqual([]);
    const emails = await fx.mongo.collections.bookingIntents.distinct('email', { email: { $regex: '^load-' } });
    expect(emails.length).toBe(100);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email: { $regex: '^load-' } })).toBe(100);
  });
});

describe('the guest confirmation through the SDK v2 client on 2026-07-28', () => {
  const MODERN = '2026-07-28';
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'booking_intent_tool' };
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const yes = { action: 'accept' as const, content: { confirm: true } };
  async function rpc(params: Record<string, unknown>): Promise<any> {
    const res = await fetch(`${fx.url}/mcp/public`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'booking_intent_tool', _meta: meta, ...params } }) });
    return ((await jsonRpcOf(res)) as { result: unknown }).result;
  }
  const refusal = (result: any) => JSON.parse(result.content[0].text).error;

  it('saves an accepted answer and records the exact question shown, its version and the transport', async () => {
    const client = await fx.mcpModern({ elicitation: { form: {} } });
    const shown: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      shown.push((request.params as { message: string }).message);
      return yes;
    });
    const email = 'signed-yes@example.com';
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: { email, name: 'Ada Guest', guest_consent: true } });
    expect(res.isError ?? false).toBe(false);
    const [call] = (await fx.mongo.collections.bookingIntents.findOne({ email }))!.calls;
    expect(call.consent).toEqual({ wording: expect.stringContaining(shown[0]), wording_version: expect.stringMatching(/^[0-9a-f]{12}$/), via: 'elicitation', transport: 'mcp-2026' });
    expect(call.consent.wording).toContain('[x] Yes, save these details');
  });

  it('refuses a forged, altered, foreign-arguments or stale request state, saving nothing', async () => {
    const email = 'signed-no@example.com';
    const args = { email, guest_consent: true };
    const asked = await rpc({ arguments: args });
    expect(asked.resultType).toBe('input_required');
    const state = asked.requestState as string;
    // The unsigned digest the service used to accept: sha256 of the arguments' sorted JSON.
    const bare = createHash('sha256').update(JSON.stringify({ email, guest_consent: true })).digest('base64url');
    const [v, payload, sig] = state.split('.');
    const altered = `${v}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), iat: Date.now() + 1 })).toString('base64url')}.${sig}`;
    for (const forged of [bare, altered, `${state}x`, 'v1.e30.AAAA']) {
      expect(refusal(await rpc({ arguments: args, inputResponses: { guest_confirmation: yes }, requestState: forged })).message).toMatch(/not one given for this call/);
    }
    expect(refusal(await rpc({ arguments: { ...args, name: 'Other' }, inputResponses: { guest_confirmation: yes }, requestState: state })).message).toMatch(/not one given for this call/);
    const clock = fx.svc.deps.clock;
    fx.svc.deps.clock = () => new Date(Date.now() + 11 * 60_000);
    try {
      expect(refusal(await rpc({ arguments: args, inputResponses: { guest_confirmation: yes }, requestState: state })).message).toMatch(/older than 10 minutes/);
    } finally {
      fx.svc.deps.clock = clock;
    }
    expect(await records(email)).toBe(0);
    expect((await rpc({ arguments: args, inputResponses: { guest_confirmation: yes }, requestState: state })).structuredContent.email).toBe(email);
    expect(await records(email)).toBe(1);
  });
});

describe('logs', () => {
  it('never carry an email, phone or name, at any level, whatever the outcome', async () => {
    await intent({ email: 'secret.person@example.com', phone: '+14155559999', name: 'Secret Person', guest_consent: true });
    await intent({ email: 'secret.person@example.com', phone: 'garbled-4155559999', name: 'Secret Person', guest_consent: false });
    await intent({ email: 'not-an-email-secret', phone: '+14155559999', guest_consent: true });
    await intent({ email: 'secret.person@example.com', home_slug: 'no-such-home', guest_consent: true });
    expect(logLines.length).toBeGreaterThan(0);
    const all = logLines.join('\n');
    for (const secret of ['secret.person', 'not-an-email-secret', '4155559999', 'Secret Person', 'load-1@example.com', 'Ada Guest', '5550100']) {
      expect(all).not.toContain(secret);
    }
  });
});
