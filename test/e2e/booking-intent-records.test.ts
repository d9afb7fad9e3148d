/**
 * booking_intent_tool, the single write: contact checks, one record per email under concurrency, the
 * 30-day window, retention, and no contact detail in any log line,
 * through the tool server on the real MongoDB-wire server (docs/contract.md, "booking_intent_tool",
 * "Errors"; setup: test/e2e/shared/booking-intent.ts).
 */
import { logSink as keptLog } from '../support/log-sink';
import type { Fixture } from '../support/fixture';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import { ensureIndexes } from '../../services/kernel/store/collections';
import { jsonRpcOf } from '../support/json-rpc-answer';
import { intentCalls, startIntentFixture } from './shared/booking-intent';

const { sink: logSink, lines: logLines } = keptLog();

let fx: Fixture;
let homes: HomeRecord[];

beforeAll(async () => {
  ({ fx, homes } = await startIntentFixture(logSink));
});

afterAll(async () => {
  await fx?.close();
});

const { intent, saved, failure, records } = intentCalls(
  () => fx,
  () => homes,
);

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
    const calls = Array.from({ length: 1000 }, (_, i) => ({
      email: `load-${i % 100}@example.com`,
      phone: '+1 212 555 01' + String(i % 100).padStart(2, '0'),
      guest_consent: true,
    }));
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
