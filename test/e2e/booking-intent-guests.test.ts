/**
 * booking_intent_tool when someone else writes first for a guest's email (docs/contract.md,
 * booking_intent_tool rules 1-3): each call's own phone and name are kept with that call while the
 * answer follows rule 3; strangers spending the email's budget do not lock the guest out; a
 * confirmation's requestState lets one write through. Through the SDK's MCP client (each client its
 * own address, X-Forwarded-For from a trusted loopback proxy) and raw JSON-RPC posts, on the real
 * MongoDB-wire server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFixture, type Fixture } from '../support/fixture';
import { eraseGuest } from '../../services/booking-intents/erase';
import { emailCountKey } from '../../services/booking-intents/budget';
import { RATE_LIMITS_COLLECTION } from '../../services/kernel/store/collections';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import { REQUEST_STATE_LIFETIME_SECONDS } from '../../services/kernel/limits/request-state';
import { MODERN, envelope, mcpWire } from './shared/mcp-wire';

const EMAIL_POINTS = 3;
let fx: Fixture;
let home: HomeRecord;
const clients: Client[] = [];

beforeAll(async () => {
  fx = await startFixture({ homes: 20, env: { TRUSTED_PROXIES: 'loopback', BOOKING_INTENT_EMAIL_POINTS: String(EMAIL_POINTS) } });
  home = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null })) as HomeRecord;
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await fx?.close();
});

/** booking_intent_tool through the SDK client, as a client at `address`. */
async function intentFrom(address: string, args: Record<string, unknown>) {
  const client = new Client({ name: 'catalog-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${fx.url}/mcp/public`), { requestInit: { headers: { 'X-Forwarded-For': address } } });
  await client.connect(transport);
  clients.push(client);
  const res = await client.callTool({ name: 'booking_intent_tool', arguments: { guest_consent: true, ...args } });
  if (res.isError) throw new Error(`refused: ${(res.content as Array<{ text: string }>)[0].text}`);
  return res.structuredContent as Record<string, unknown>;
}

const recordOf = (email: string) => fx.mongo.collections.bookingIntents.findOne({ email });

describe('a stranger writes first for a guest’s email', () => {
  const email = 'victim@example.com';
  const stranger = { phone: '+1 212 555 0199', name: 'Mallory Stranger' };
  const guest = { phone: '+1 415 555 0142', name: 'Vera Guest' };

  it('keeps both calls’ own phone and name in the record, while the guest’s answer follows rule 3', async () => {
    const first = await intentFrom('198.51.100.7', { email, ...stranger });
    const own = await intentFrom('203.0.113.42', { email: 'Victim@Example.com', ...guest });
    // Rule 3: the same intent, phone and name omitted from the answer, no warning.
    expect(own).toEqual({ checkout_url: first.checkout_url, intent_id: first.intent_id, email });
    const record = await recordOf(email);
    // The record's own details are the first call's, not overwritten...
    expect(record).toMatchObject({ phone: '+12125550199', name: 'Mallory Stranger' });
    // ...and the guest's own call keeps the details it sent.
    expect(record?.calls.map((c) => ({ phone: c.phone, name: c.name }))).toEqual([
      { phone: '+12125550199', name: 'Mallory Stranger' },
      { phone: '+14155550142', name: 'Vera Guest' },
    ]);
  });

  it('erases every call’s phone and name with the email', async () => {
    const erased = await eraseGuest(fx.mongo.collections, email);
    expect(erased).toMatchObject({ intents: 1, calls: 2, callContacts: 2 });
    const anywhere = {
      $or: [{ phone: { $in: ['+12125550199', '+14155550142'] } }, { 'calls.phone': { $in: ['+12125550199', '+14155550142'] } }, { 'calls.name': 'Vera Guest' }],
    };
    expect(await fx.mongo.collections.bookingIntents.countDocuments(anywhere)).toBe(0);
    expect(await recordOf(email)).toBeNull();
  });
});

describe('strangers spend an email’s daily budget from many addresses', () => {
  it('answers the guest’s own call as a repeat (same intent_id and checkout_url), saving nothing new, instead of refusing', async () => {
    const email = 'budget-victim@example.com';
    const sent = { email, home_slug: home.slug, phone: '+1 212 555 0177', name: 'Flood Stranger' };
    const floods = [];
    for (let i = 1; i <= EMAIL_POINTS + 2; i++) floods.push(await intentFrom(`198.51.100.${20 + i}`, sent));
    const first = floods[0];
    for (const answer of floods) expect(answer).toMatchObject({ intent_id: first.intent_id, checkout_url: first.checkout_url });
    const before = await recordOf(email);
    expect(before?.calls).toHaveLength(EMAIL_POINTS);

    const own = await intentFrom('203.0.113.99', { email, home_slug: home.slug, phone: '+1 415 555 0143', name: 'Budget Guest' });
    expect(own).toEqual({ checkout_url: first.checkout_url, intent_id: first.intent_id, email, home_slug: home.slug });
    // Nothing new saved: the record as it was, the email's count not spent further.
    expect(await recordOf(email)).toEqual(before);
    const count = await fx.mongo.db.collection<{ key: string; points: number }>(RATE_LIMITS_COLLECTION).findOne({ key: emailCountKey(email) });
    expect(count?.points).toBe(EMAIL_POINTS);
  });
});

describe('the confirmation’s requestState', () => {
  const { post } = mcpWire(() => fx);
  const headers = (address: string) => ({
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': 'booking_intent_tool',
    'X-Forwarded-For': address,
  });
  const accept = { action: 'accept', content: { confirm: true } };

  /** Asks the question for `args` and answers the requestState it carries. */
  async function ask(args: Record<string, unknown>): Promise<string> {
    const res = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'booking_intent_tool', arguments: args, _meta: envelope({ elicitation: {} }) } },
      headers('192.0.2.10'),
    );
    expect(res.json.result.resultType).toBe('input_required');
    return res.json.result.requestState as string;
  }

  const answer = (args: Record<string, unknown>, state: string, address: string) =>
    post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'booking_intent_tool',
          arguments: args,
          _meta: envelope({ elicitation: {} }),
          inputResponses: { guest_confirmation: accept },
          requestState: state,
        },
      },
      headers(address),
    );

  it('is accepted once: a replay from another address is refused with the error object and saves nothing', async () => {
    const email = 'replay@example.com';
    const args = { email, phone: '+1 415 555 0144', guest_consent: true };
    const state = await ask(args);
    const first = await answer(args, state, '192.0.2.10');
    expect(first.json.result.structuredContent).toMatchObject({ email, phone: '+14155550144' });
    const replay = await answer(args, state, '192.0.2.66');
    expect(replay.json.result.isError).toBe(true);
    expect(JSON.parse(replay.json.result.content[0].text)).toEqual({ error: { code: 'consent_declined', message: expect.stringMatching(/already used/) } });
    expect((await recordOf(email))?.calls).toHaveLength(1);
    // Kept as long as the state could still verify, shared by every copy through MongoDB.
    const used = fx.mongo.collections.usedRequestStates;
    expect(await used.indexes()).toContainEqual(expect.objectContaining({ key: { used_at: 1 }, expireAfterSeconds: REQUEST_STATE_LIFETIME_SECONDS }));
    expect(await used.countDocuments({ _id: state })).toBe(0);
  });

  it('lets exactly one of two concurrent uses through', async () => {
    const email = 'replay-race@example.com';
    const args = { email, guest_consent: true };
    const state = await ask(args);
    const both = await Promise.all([answer(args, state, '192.0.2.11'), answer(args, state, '192.0.2.12')]);
    const through = both.filter((r) => !r.json.result.isError);
    expect(through).toHaveLength(1);
    expect(through[0].json.result.structuredContent.email).toBe(email);
    const refused = both.find((r) => r.json.result.isError);
    expect(JSON.parse(refused?.json.result.content[0].text).error.code).toBe('consent_declined');
    expect((await recordOf(email))?.calls).toHaveLength(1);
  });
});
