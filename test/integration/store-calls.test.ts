/**
 * MongoDB calls timed where the service makes them (services/kernel/store/store-calls.ts), on the real
 * MongoDB-wire server: each call through the collections, a cursor's reads (its chained methods kept
 * timed), the database's `command` and the collections of its client's databases are told to the
 * listener once, by the command the driver sends and whether it failed; the answers are the driver's own.
 */
import { testConfig } from '../support/fixture';
import { connectMongo, type MongoHandle } from '../../services/kernel/store/mongo';
import { timedCollections, timedDb, type StoreCall } from '../../services/kernel/store/store-calls';
import type { Collections } from '../../services/kernel/store/collections';
import type { PolicyRecord } from '../../services/kernel/store/collections';

const config = testConfig();
let mongo: MongoHandle;
let calls: StoreCall[];
let c: Collections;

beforeAll(async () => {
  mongo = await connectMongo(config.mongoUrl, config.mongoDb, { deadlineMs: 10_000 });
});
beforeEach(() => {
  calls = [];
  c = timedCollections(mongo.collections, (call) => calls.push(call));
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

const policy = (topic: string): PolicyRecord => ({ _id: topic, topic, answer: `about ${topic}`, updated_at: new Date() });

describe('MongoDB calls timed at the call', () => {
  it('tells each collection call once, by the command it sends, with the driver answer unchanged', async () => {
    await c.policies.insertOne(policy('pets'));
    const found = await c.policies.findOne({ _id: 'pets' });
    await c.policies.updateOne({ _id: 'pets' }, { $set: { answer: 'yes' } });
    const after = await c.policies.findOneAndUpdate({ _id: 'pets' }, { $set: { answer: 'no' } }, { returnDocument: 'after' });
    await c.policies.deleteOne({ _id: 'pets' });
    expect(found?.answer).toBe('about pets');
    expect(after?.answer).toBe('no');
    expect(calls.map((x) => x.operation)).toEqual(['insert', 'find', 'update', 'findAndModify', 'delete']);
    expect(calls.every((x) => !x.failed && x.seconds >= 0 && x.seconds < 10)).toBe(true);
  });

  it('times a cursor where it is read, its chained methods keeping it timed', async () => {
    await c.policies.insertMany([policy('a'), policy('b'), policy('c')]);
    calls = [];
    const cursor = c.policies.find({}).sort({ _id: -1 }).limit(2);
    expect(calls).toEqual([]);
    const docs = await cursor.toArray();
    expect(docs.map((d) => d._id)).toEqual(['c', 'b']);
    expect(calls.map((x) => x.operation)).toEqual(['find']);
    const counted = await c.policies.countDocuments({});
    expect(counted).toBe(3);
    expect(calls.map((x) => x.operation)).toEqual(['find', 'aggregate']);
    await c.policies.deleteMany({});
  });

  it('tells a failed call as failed, and the caller still gets the error', async () => {
    await c.policies.insertOne(policy('dup'));
    calls = [];
    await expect(c.policies.insertOne(policy('dup'))).rejects.toThrow(/duplicate key|E11000/i);
    expect(calls).toEqual([expect.objectContaining({ operation: 'insert', failed: true })]);
    await c.policies.deleteMany({});
  });

  it('times the database command and the collections of its client (the rate limits store)', async () => {
    const db = timedDb(mongo.db, (call) => calls.push(call));
    expect(await db.command({ ping: 1 })).toEqual(expect.objectContaining({ ok: 1 }));
    const limits = db.client.db(config.mongoDb).collection('store_calls_test');
    await limits.findOneAndUpdate({ _id: 'k' as unknown as never }, { $inc: { points: 1 } }, { upsert: true });
    expect(calls.map((x) => x.operation)).toEqual(['ping', 'findAndModify']);
  });
});
