/**
 * booking_intent_tool's own write budget (services/booking-intents/budget.ts) on the real MongoDB:
 * so many intents per client address and so many per email, shared through `rate_limits`; past the
 * address's a write answers rate_limited and saves nothing; past the email's a call is answered as a
 * repeat and saves nothing; the email's count is kept under a hash, never the email.
 * Each test is its own client (X-Forwarded-For from a trusted loopback proxy).
 */
import { startFixture, type Fixture } from '../support/fixture';
import { emailCountKey } from '../../services/booking-intents/budget';
import { jsonRpcOf } from '../support/json-rpc-answer';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({
    homes: 20,
    env: { TRUSTED_PROXIES: 'loopback', BOOKING_INTENT_ADDRESS_POINTS: '3', BOOKING_INTENT_EMAIL_POINTS: '2' },
  });
});
afterAll(async () => {
  await fx?.close();
});

let id = 0;
async function intentFrom(address: string, email: string): Promise<{ isError?: boolean; error?: { code: string; message: string } }> {
  const res = await fetch(`${fx.url}/mcp/public`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'X-Forwarded-For': address },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { name: 'booking_intent_tool', arguments: { email, guest_consent: true } },
    }),
  });
  const body = (await jsonRpcOf(res)) as { result: { isError?: boolean; content: Array<{ text: string }> } };
  return body.result.isError ? { isError: true, error: JSON.parse(body.result.content[0].text).error } : {};
}

const records = (email: string) => fx.mongo.collections.bookingIntents.countDocuments({ email });

describe('the booking-intent write budget', () => {
  it('refuses the fourth intent from one address within the hour with rate_limited, saving nothing', async () => {
    for (let i = 0; i < 3; i++) expect(await intentFrom('203.0.113.10', `addr-${i}@example.com`)).toEqual({});
    const refused = await intentFrom('203.0.113.10', 'addr-3@example.com');
    expect(refused.error).toEqual({ code: 'rate_limited', message: expect.stringMatching(/nothing was saved.*Retry in \d+ s/) });
    expect(await records('addr-3@example.com')).toBe(0);
    // Another address still has its own budget.
    expect(await intentFrom('203.0.113.11', 'addr-3@example.com')).toEqual({});
  });

  it('answers the third intent for one email within the day as a repeat, from any address, saving nothing new', async () => {
    const email = 'target@example.com';
    expect(await intentFrom('198.51.100.1', email)).toEqual({});
    expect(await intentFrom('198.51.100.2', email)).toEqual({});
    expect(await intentFrom('198.51.100.3', email)).toEqual({});
    const record = await fx.mongo.collections.bookingIntents.findOne({ email });
    expect(record?.calls).toHaveLength(2);
  });

  it('counts in MongoDB under a hash of the email, never the email itself', async () => {
    const counts = fx.mongo.db.collection<{ key: string }>('rate_limits');
    expect(await counts.countDocuments({ key: emailCountKey('target@example.com') })).toBe(1);
    const keys = (await counts.find({}, { projection: { key: 1 } }).toArray()).map((d) => d.key);
    expect(keys.filter((k) => k.includes('@'))).toEqual([]);
    expect(keys).toContain('intent_address:198.51.100.1');
  });
});
