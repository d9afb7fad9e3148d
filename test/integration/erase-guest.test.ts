/**
 * `npm run erase-guest` (services/booking-intents/erase-cli.ts) on the real MongoDB-wire server:
 * removes one email's booking intent and its write-budget count, leaves every other email's alone,
 * and prints what it removed without printing the email.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { testConfig } from '../support/fixture';
import { connectMongo, type MongoHandle } from '../../services/kernel/store/mongo';
import { ensureIndexes, RATE_LIMITS_COLLECTION } from '../../services/kernel/store/collections';
import { saveIntent } from '../../services/booking-intents/store';
import { createIntentBudget, emailCountKey } from '../../services/booking-intents/budget';

const config = testConfig();
let mongo: MongoHandle;
const ROOT = path.resolve(__dirname, '../..');
const consent = { wording: 'w', wording_version: '000000000000', via: 'guest_consent' as const, transport: 'mcp-2025' as const };
const call = { home_slug: null, start_date: null, end_date: null, committed_nights: null, consent };

beforeAll(async () => {
  mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  await ensureIndexes(mongo.collections, { bookingIntentRetentionDays: 365 });
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

async function eraseCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('sh', ['bin/run-entry.sh', 'services/booking-intents/erase-cli', ...args], {
      cwd: ROOT,
      env: { ...process.env, MONGO_URL: config.mongoUrl, MONGO_DB: config.mongoDb, NODE_ENV: 'development' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run erase-guest', () => {
  it("erases every record of one email, says what it removed, and leaves other emails' records", async () => {
    const budget = createIntentBudget(config.bookingIntents, { client: mongo.client, dbName: config.mongoDb });
    for (let i = 0; i < 3; i++) {
      await budget.spend('192.0.2.1', 'gone@example.com');
      await saveIntent(mongo.collections, { email: 'gone@example.com', phone: '+14155550100', name: 'Gone Guest', call }, new Date(), 365);
    }
    await budget.spend('192.0.2.1', 'stays@example.com');
    await saveIntent(mongo.collections, { email: 'stays@example.com', phone: null, name: null, call }, new Date(), 365);
    const counts = mongo.db.collection<{ key: string }>(RATE_LIMITS_COLLECTION);
    expect(await counts.countDocuments({ key: emailCountKey('gone@example.com') })).toBe(1);

    const run = await eraseCli('--email', ' Gone@Example.com ');
    expect(run).toMatchObject({
      code: 0,
      stdout:
        'erased: 1 booking-intent record(s) holding 3 call(s) (stays and consents), 3 of them with a phone or name, 1 write-budget count(s), 0 watch(es)\n',
    });
    expect(run.stdout + run.stderr).not.toContain('gone@');
    expect(await mongo.collections.bookingIntents.countDocuments({ email: 'gone@example.com' })).toBe(0);
    expect(await counts.countDocuments({ key: emailCountKey('gone@example.com') })).toBe(0);
    expect(await mongo.collections.bookingIntents.countDocuments({ email: 'stays@example.com' })).toBe(1);
    expect(await counts.countDocuments({ key: emailCountKey('stays@example.com') })).toBe(1);

    expect((await eraseCli('--email', 'gone@example.com')).stdout).toMatch(/erased: 0 .* nothing was kept for this email/);
    expect((await eraseCli()).code).toBe(2);
  });
});
