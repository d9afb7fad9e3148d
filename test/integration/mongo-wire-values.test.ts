/**
 * What the stack's MongoDB-wire server keeps is what was sent: every BSON type a client can send comes
 * back the same after it is stored (stack/mongo/BsonDocuments.java keeps documents as BSON, and as
 * Java serialization a document BSON could not carry back equal, such as one holding the server's own
 * clock reading of `$currentDate`). Against a real MongoDB (docker-compose) the same holds.
 */
import { BSON, Binary, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID, BSONRegExp, type Document } from 'mongodb';
import { testConfig } from '../support/fixture';
import { connectMongo, type MongoHandle } from '../../services/kernel/store/mongo';

/** A stored document: any fields, with a string `_id`. */
type Stored = Document & { _id: string };

const config = testConfig();
let mongo: MongoHandle;

beforeAll(async () => {
  mongo = await connectMongo(config.mongoUrl, config.mongoDb, { deadlineMs: 10_000 });
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

/** One of each BSON type, nested in documents and arrays, in a key order that is not alphabetical. */
function everyType(id: string): Stored {
  return {
    _id: id,
    zeta: 'text with ünïcode and "quotes"',
    int32: 7,
    negative: -2147483648,
    int64: Long.fromString('9007199254740993'),
    double: 0.1,
    wholeDouble: new Double(3),
    minusZero: -0,
    decimal: Decimal128.fromString('1234.5600'),
    date: new Date('2026-11-30T21:47:00.123Z'),
    objectId: new ObjectId('65a1b2c3d4e5f60718293a4b'),
    binary: new Binary(Buffer.from([0, 1, 2, 254, 255])),
    uuid: new UUID('2f1b7c1e-8a40-4c57-9d2c-6f0b1c2d3e4f'),
    regex: new BSONRegExp('^home-\\d+$', 'i'),
    timestamp: new Timestamp({ t: 1764539220, i: 3 }),
    yes: true,
    nothing: null,
    min: new MinKey(),
    max: new MaxKey(),
    nested: { b: [1, 'two', { three: [3.5, null] }], a: { deep: { deeper: new Int32(4) } } },
    empty: { list: [], doc: {} },
  };
}

const bytesOf = (doc: Document | null | undefined): string => Buffer.from(BSON.serialize(doc ?? {})).toString('hex');

describe('the MongoDB-wire server keeps what it is sent', () => {
  it('gives back every BSON type, in the order sent, after storing it', async () => {
    const values = mongo.db.collection<Stored>('values');
    await values.insertOne(everyType('all'));
    // Read without promoting values, so each comes back as its BSON type: the bytes must be the ones sent.
    const back = await values.findOne({ _id: 'all' }, { promoteValues: false });
    expect(Object.keys(back ?? {})).toEqual(Object.keys(everyType('all')));
    expect(bytesOf(back)).toEqual(bytesOf(everyType('all')));
  });

  it('keeps a document through updates, the server clock reading of $currentDate among them', async () => {
    const values = mongo.db.collection<Stored>('values');
    await values.insertOne(everyType('updated'));
    const before = Date.now();
    // As any client sends it (the typed filter of a collection cannot name a path into an untyped field).
    const update: Document = { $set: { 'nested.a.added': 'yes' }, $inc: { int32: 1 }, $push: { 'empty.list': 'first' }, $currentDate: { touched: true } };
    await values.updateOne({ _id: 'updated' }, update);
    const back = await values.findOne({ _id: 'updated' }, { promoteValues: false });
    const { touched, ...rest }: Document = back ?? {};
    const expected = everyType('updated');
    expected.int32 = 8;
    (expected.nested as { a: Record<string, unknown> }).a.added = 'yes';
    (expected.empty as { list: string[] }).list.push('first');
    expect(bytesOf(rest)).toEqual(bytesOf({ ...expected, int32: new Int32(8) }));
    expect(touched).toBeInstanceOf(Date);
    expect((touched as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((touched as Date).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    // Read again by another query shape: the stored document, not an answer kept from the update.
    const [listed] = await values.find({ _id: { $in: ['updated'] } }, { promoteValues: false }).toArray();
    expect(bytesOf(listed)).toEqual(bytesOf(back));
  });

  it('finds documents by a regular expression on _id, as a rebuild reads its slices', async () => {
    const slices = mongo.db.collection<Stored>('slices');
    await slices.insertMany(['home-000101', 'home-000111', 'home-000102', 'other-01', 'x'].map((_id) => ({ _id })));
    const ids = async (pattern: RegExp): Promise<string[]> => (await slices.find({ _id: pattern }).toArray()).map((d) => String(d._id)).sort();
    expect(await ids(/01$/)).toEqual(['home-000101', 'other-01']);
    expect(await ids(/1(?:1|2)$/)).toEqual(['home-000111']);
    expect(await ids(/0(?:1|2)$/)).toEqual(['home-000101', 'home-000102', 'other-01']);
    expect(await ids(/^HOME-0001[01]1$/i)).toEqual(['home-000101', 'home-000111']);
    expect(await ids(/^[\s\S]?$/)).toEqual(['x']);
  });
});
