/** `npm run import`: valid records are kept, bad lines are reported with their number and reason. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testConfig } from '../support/fixture';
import { connectMongo, type MongoHandle } from '../../services/kernel/store/mongo';
import { importLines } from '../../indexer/import-run';
import { makeHome, openRange } from '../support/arbitraries';
import { makeMarket, makeProperty } from '../support/records';
import type { Config } from '../../services/kernel/config';

let config: Config;
let mongo: MongoHandle;

/** Import lines carry records without the timestamps the importer sets. */
function withoutTimestamps<T extends object>(record: T): Omit<T, 'created_at' | 'updated_at' | 'deleted_at'> {
  const { created_at: _c, updated_at: _u, deleted_at: _d, ...rest } = record as T & Record<string, unknown>;
  void _c;
  void _u;
  void _d;
  return rest as Omit<T, 'created_at' | 'updated_at' | 'deleted_at'>;
}
const market = withoutTimestamps(makeMarket());
const property = withoutTimestamps(makeProperty({ photos: [], rating: null, allows_dogs: false }));
function homeLine(overrides: Record<string, unknown> = {}): string {
  const record = withoutTimestamps(makeHome({ calendar: [openRange('2027-01-01', null)] }));
  return JSON.stringify({ kind: 'home', record: { ...record, ...overrides } });
}

beforeAll(async () => {
  config = testConfig();
  mongo = await connectMongo(config.mongoUrl, config.mongoDb);
});

afterAll(async () => {
  await mongo.db.dropDatabase();
  await mongo.close();
});

async function* lines(text: string): AsyncGenerator<string> {
  yield* text.split('\n');
}

describe('importLines', () => {
  it('keeps every valid record and reports each bad line with its number and reason', async () => {
    const file = [
      JSON.stringify({ kind: 'market', record: market }),
      JSON.stringify({ kind: 'property', record: property }),
      homeLine(),
      '{ not json',
      JSON.stringify({ kind: 'home', record: { slug: 'only-a-slug' } }),
      homeLine({ _id: 'home-2', slug: 'second', calendar: [openRange('2027-01-01', '2027-02-01'), openRange('2027-02-03', null)] }),
      homeLine({ _id: 'home-3', slug: 'third', property_id: 'prop-missing' }),
      homeLine({ _id: 'home-4', slug: 'fourth', available_from: '2027-02-30' }),
      JSON.stringify({ kind: 'booking', record: {} }),
      '',
      homeLine({ _id: 'home-5', slug: 'fifth', bedrooms: 2 }),
    ].join('\n');
    const summary = await importLines(mongo.collections, lines(file));
    expect(summary.imported).toEqual({ market: 1, property: 1, home: 2 });
    expect(summary.errors.map((e) => e.line)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(summary.errors[0].reason).toMatch(/JSON/);
    expect(summary.errors[1].reason).toMatch(/required property/);
    expect(summary.errors[2].reason).toMatch(/does not start where/);
    expect(summary.errors[3].reason).toMatch(/prop-missing/);
    expect(summary.errors[4].reason).toMatch(/real calendar date/);
    expect(summary.errors[5].reason).toMatch(/kind/);
    expect(await mongo.collections.homes.countDocuments()).toBe(2);
    const fifth = await mongo.collections.homes.findOne({ slug: 'fifth' });
    expect(fifth?.bedrooms).toBe(2);
    expect(fifth?.deleted_at).toBeNull();
  });

  it('re-importing updates records in place (no duplicates) and bumps updated_at', async () => {
    const before = await mongo.collections.homes.findOne({ slug: 'fifth' });
    const later = new Date(Date.now() + 60_000);
    const summary = await importLines(mongo.collections, lines(homeLine({ _id: 'home-5', slug: 'fifth', bedrooms: 3 })), () => later);
    expect(summary.errors).toEqual([]);
    const after = await mongo.collections.homes.findOne({ slug: 'fifth' });
    expect(after?.bedrooms).toBe(3);
    expect(after?.updated_at.getTime()).toBe(later.getTime());
    expect(after?.created_at.getTime()).toBe(before?.created_at.getTime());
    expect(await mongo.collections.homes.countDocuments({ slug: 'fifth' })).toBe(1);
  });
});

describe('npm run import', () => {
  it('exits 1 and prints line numbers when a line is bad, keeping the good ones', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'import-'));
    const file = path.join(dir, 'homes.ndjson');
    writeFileSync(file, [homeLine({ _id: 'home-9', slug: 'ninth' }), 'oops'].join('\n'));
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'indexer/import-cli.ts', file], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, ES_URL: config.esUrl, MONGO_URL: config.mongoUrl, MONGO_DB: config.mongoDb },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('line 2: not valid JSON');
    expect(res.stdout).toContain('1 homes');
  });
});
