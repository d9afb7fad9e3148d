/**
 * booking_intent_tool, the single write: the guest's consent (guest_consent), and the guest confirmation
 * through the SDK v2 client on 2026-07-28 with its signed request state,
 * through the tool server on the real MongoDB-wire server (docs/contract.md, "booking_intent_tool",
 * "Errors"; setup: test/e2e/shared/booking-intent.ts).
 */
import { createHash } from 'node:crypto';
import type { Fixture } from '../support/fixture';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import { jsonRpcOf } from '../support/json-rpc-answer';
import { intentCalls, startIntentFixture } from './shared/booking-intent';

let fx: Fixture;
let homes: HomeRecord[];

beforeAll(async () => {
  ({ fx, homes } = await startIntentFixture());
});

afterAll(async () => {
  await fx?.close();
});

const { intent, failure, records } = intentCalls(
  () => fx,
  () => homes,
);

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

describe('the guest confirmation through the SDK v2 client on 2026-07-28', () => {
  const MODERN = '2026-07-28';
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': 'booking_intent_tool',
  };
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const yes = { action: 'accept' as const, content: { confirm: true } };
  async function rpc(params: Record<string, unknown>): Promise<any> {
    const res = await fetch(`${fx.url}/mcp/public`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'booking_intent_tool', _meta: meta, ...params } }),
    });
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
    expect(call.consent).toEqual({
      wording: expect.stringContaining(shown[0]),
      wording_version: expect.stringMatching(/^[0-9a-f]{12}$/),
      via: 'elicitation',
      transport: 'mcp-2026',
    });
    expect(call.consent.wording).toContain('[x] Yes, save these details');
  });

  it('refuses a forged, altered, foreign-arguments or stale request state, saving nothing', async () => {
    const email = 'signed-no@example.com';
    const args = { email, guest_consent: true };
    const asked = await rpc({ arguments: args });
    expect(asked.resultType).toBe('input_required');
    const state = asked.requestState as string;
    // The unsigned digest the service used to accept: sha256 of the arguments' sorted JSON.
    const bare = createHash('sha256')
      .update(JSON.stringify({ email, guest_consent: true }))
      .digest('base64url');
    const [v, payload, sig] = state.split('.');
    const altered = `${v}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), iat: Date.now() + 1 })).toString('base64url')}.${sig}`;
    for (const forged of [bare, altered, `${state}x`, 'v1.e30.AAAA']) {
      expect(refusal(await rpc({ arguments: args, inputResponses: { guest_confirmation: yes }, requestState: forged })).message).toMatch(
        /not one given for this call/,
      );
    }
    expect(refusal(await rpc({ arguments: { ...args, name: 'Other' }, inputResponses: { guest_confirmation: yes }, requestState: state })).message).toMatch(
      /not one given for this call/,
    );
    const clock = fx.svc.deps.clock;
    fx.svc.deps.clock = () => new Date(Date.now() + 11 * 60_000);
    try {
      expect(refusal(await rpc({ arguments: args, inputResponses: { guest_confirmation: yes }, requestState: state })).message).toMatch(
        /older than 10 minutes/,
      );
    } finally {
      fx.svc.deps.clock = clock;
    }
    expect(await records(email)).toBe(0);
    expect((await rpc({ arguments: args, inputResponses: { guest_confirmation: yes }, requestState: state })).structuredContent.email).toBe(email);
    expect(await records(email)).toBe(1);
  });
});
