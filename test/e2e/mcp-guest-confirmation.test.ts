/**
 * POST /mcp/public asks the guest to confirm what a booking intent saves, where the client can ask
 * (elicitation on 2026-07-28): accepted, declined, cancelled and unticked answers, calls bound to fail,
 * answers for another call, and clients that cannot ask (setup: test/e2e/shared/mcp-wire.ts).
 */
import type { Fixture } from '../support/fixture';
import { MODERN, envelope, mcpWire, startEraFixture } from './shared/mcp-wire';

let fx: Fixture;

beforeAll(async () => {
  fx = await startEraFixture();
});
afterAll(async () => {
  await fx?.close();
});

const { modernClient, post } = mcpWire(() => fx);

describe('the guest confirms what a booking intent saves, where the client can ask', () => {
  const intentArgs = (email: string) => ({ email, phone: '+1 415 555 0100', name: 'Ada Guest', guest_consent: true });

  it('asks with the exact details and saves on an accepted answer', async () => {
    const asked: Array<{ message: string }> = [];
    const client = await modernClient({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as { message: string });
      return { action: 'accept', content: { confirm: true } };
    });
    const email = `confirm-yes-${Date.now()}@example.com`;
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(res.isError ?? false).toBe(false);
    expect(res.structuredContent).toEqual(expect.objectContaining({ email, phone: '+14155550100', name: 'Ada Guest' }));
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toContain(`email: "${email}"`);
    expect(asked[0].message).toContain('phone: "+14155550100"');
    expect(asked[0].message).toContain('name: "Ada Guest"');
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(1);
  });

  it.each(['decline', 'cancel'] as const)('saves nothing and says so when the guest answers %s', async (action) => {
    const client = await modernClient({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action }));
    const email = `confirm-${action}-${Date.now()}@example.com`;
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(res.isError).toBe(true);
    expect(JSON.parse((res.content as Array<{ text: string }>)[0].text)).toEqual({
      error: { code: 'consent_declined', message: expect.stringMatching(/nothing was saved/) },
    });
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(0);
  });

  it('saves nothing when the form comes back unticked', async () => {
    const client = await modernClient({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: false } }));
    const email = `confirm-unticked-${Date.now()}@example.com`;
    const res = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(res.isError).toBe(true);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(0);
  });

  it('refuses a call bound to fail before the guest is asked', async () => {
    const client = await modernClient({ elicitation: { form: {} } });
    let asked = 0;
    client.setRequestHandler('elicitation/create', async () => {
      asked += 1;
      return { action: 'accept', content: { confirm: true } };
    });
    const res = await client.callTool({
      name: 'booking_intent_tool',
      arguments: { ...intentArgs(`confirm-nohome-${Date.now()}@example.com`), home_slug: 'no-such-home' },
    });
    expect(JSON.parse((res.content as Array<{ text: string }>)[0].text).error.code).toBe('home_not_found');
    expect(asked).toBe(0);
  });

  it('honours a decline even from a client that did not declare elicitation, and an answer only for the call it was given for', async () => {
    const email = `confirm-raw-${Date.now()}@example.com`;
    const args = intentArgs(email);
    const ask = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'booking_intent_tool', arguments: args, _meta: envelope({ elicitation: {} }) } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'booking_intent_tool' },
    );
    expect(ask.json.result.resultType).toBe('input_required');
    const state = ask.json.result.requestState as string;
    const retry = (meta: Record<string, unknown>, answer: Record<string, unknown>, callArgs: Record<string, unknown>) =>
      post(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'booking_intent_tool', arguments: callArgs, _meta: meta, inputResponses: { guest_confirmation: answer }, requestState: state },
        },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'booking_intent_tool' },
      );
    const declined = await retry(envelope(), { action: 'decline' }, args);
    expect(JSON.parse(declined.json.result.content[0].text).error.code).toBe('consent_declined');
    const otherCall = await retry(envelope({ elicitation: {} }), { action: 'accept', content: { confirm: true } }, { ...args, name: 'Someone Else' });
    expect(JSON.parse(otherCall.json.result.content[0].text).error.message).toMatch(/not one given for this call/);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(0);
    const accepted = await retry(envelope({ elicitation: {} }), { action: 'accept', content: { confirm: true } }, args);
    expect(accepted.json.result.structuredContent.email).toBe(email);
    expect(await fx.mongo.collections.bookingIntents.countDocuments({ email })).toBe(1);
  });

  it('does not ask a client without elicitation, nor for consent that was never given', async () => {
    const client = await modernClient();
    const email = `confirm-none-${Date.now()}@example.com`;
    const saved = await client.callTool({ name: 'booking_intent_tool', arguments: intentArgs(email) });
    expect(saved.isError ?? false).toBe(false);
    const asker = await modernClient({ elicitation: { form: {} } });
    let asked = 0;
    asker.setRequestHandler('elicitation/create', async () => {
      asked += 1;
      return { action: 'accept', content: { confirm: true } };
    });
    const refused = await asker.callTool({ name: 'booking_intent_tool', arguments: { ...intentArgs(`x-${email}`), guest_consent: false } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0].text).error.code).toBe('consent_required');
    expect(asked).toBe(0);
  });
});
