/**
 * A watch's changes are kept as runs, one record per watch and batch within a block of CHANGE_BLOCK
 * numbers (services/watches/store.ts): whatever the batches' sizes, the changes an earlier build wrote
 * one by one (and those it left past the counter), and the batches a crash stopped before their commit
 * (their records left past the counter), every range of numbers up to the counter reads back exactly
 * the changes recorded, in order. Real Mongo-wire server; the crash is the journal's commit write throwing.
 */
import fc from 'fast-check';
import { testConfig } from '../support/fixture';
import { runs } from '../support/property-runs';
import { connectMongo, type MongoHandle } from '../../services/kernel/store/mongo';
import type { Collections } from '../../services/kernel/store/collections';
import type { WatchRecord } from '../../services/kernel/store/watch-records';
import { appendManyChanges, changeId, changesBetween, CHANGE_BLOCK, readChangeRanges, type NewChange } from '../../services/watches/store';

const config = testConfig();
let mongo: MongoHandle;

beforeAll(async () => {
  mongo = await connectMongo(config.mongoUrl, config.mongoDb, { deadlineMs: 30_000 });
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

let watches = 0;

function watchRecord(id: string, changes: number): WatchRecord {
  return {
    _id: id,
    token_hash: `hash-${id}`,
    email: `${id}@example.com`,
    consent: { wording: 'test', wording_version: 'test', via: 'guest_consent', transport: 'http' },
    search: { market: 'somewhere' },
    webhook: null,
    created_at: new Date(),
    expires_on: '2099-01-01',
    ended_at: null,
    ended_reason: null,
    changes,
    delivered: 0,
  };
}

/** The change numbered `seq` as the batch that recorded it (`batch`) describes it. */
const change = (batch: number, seq: number): NewChange => ({
  kind: seq % 3 === 0 ? 'left' : 'entered',
  home_slug: `home-${batch}-${seq}`,
  price: seq % 3 === 0 ? null : 1_000 + seq,
  card: seq % 3 === 0 ? null : { slug: `home-${batch}-${seq}`, price: 1_000 + seq, shared: seq % 2 === 0 },
});

/** The stores with the journal's commit write throwing: the batch stops with its changes written past the counter. */
function stoppingAtCommit(c: Collections): Collections {
  const journal = new Proxy(c.watchJournal, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (prop === 'replaceOne') return () => Promise.reject(new Error('stopped before the commit'));
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
  return { ...c, watchJournal: journal };
}

describe("a watch's changes kept as runs", () => {
  it('read back exactly as recorded over every range, across blocks, changes of an earlier build and stopped batches', async () => {
    const c = mongo.collections;
    const done: Array<{ id: string; recorded: NewChange[] }> = [];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.record({ size: fc.integer({ min: 1, max: 3 * CHANGE_BLOCK }), stopped: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 3, maxLength: 3 }),
        async (legacy, staleLegacy, batches, picks) => {
          const id = `w_runs${String(++watches).padStart(10, '0')}`;
          // An earlier build's changes, one record each, with their cards inline.
          const recorded: NewChange[] = Array.from({ length: legacy }, (_, i) => change(0, i + 1));
          await c.watches.insertOne(watchRecord(id, legacy));
          // And those a batch of that build stopped before its counter moved: past the counter, written over by runs.
          const stale = Array.from({ length: staleLegacy }, (_, i) => change(99, legacy + 1 + i));
          const singles = [...recorded, ...stale].map((ch, i) => ({ _id: changeId(id, i + 1), watch_id: id, seq: i + 1, at: new Date(), ...ch }));
          if (singles.length > 0) await c.watchChanges.insertMany(singles);
          for (const [b, { size, stopped }] of batches.entries()) {
            const watch = (await c.watches.findOne({ _id: id }))!;
            const changes = Array.from({ length: size }, (_, i) => change(b + 1, watch.changes + 1 + i));
            const moves = { hold: new Map(), release: [] };
            if (stopped) {
              await expect(appendManyChanges(stoppingAtCommit(c), [{ watch, changes, moves }], new Date())).rejects.toThrow('stopped before the commit');
              continue;
            }
            await appendManyChanges(c, [{ watch, changes, moves }], new Date());
            recorded.push(...changes);
          }
          const counter = (await c.watches.findOne({ _id: id }))!.changes;
          expect(counter).toBe(recorded.length);
          const shown = (from: number, to: number) =>
            changesBetween(c, id, from, to).then((found) => found.map(({ seq, kind, home_slug, price, card }) => ({ seq, kind, home_slug, price, card })));
          const expected = (from: number, to: number) => recorded.slice(from - 1, to).map((ch, i) => ({ seq: from + i, ...ch }));
          expect(await shown(1, counter)).toEqual(expected(1, counter));
          for (const [x, y] of picks) {
            const from = 1 + (x % Math.max(counter, 1));
            const to = Math.min(counter, from + (y % (2 * CHANGE_BLOCK)));
            expect(await shown(from, to)).toEqual(expected(from, to));
          }
          // Every watch of the cases so far in one read, each from a number of its own, as the webhook sender reads ahead.
          done.push({ id, recorded });
          const ranges = done.map((w, i) => ({ watchId: w.id, from: 1 + (i % Math.max(w.recorded.length, 1)), to: w.recorded.length }));
          const together = await readChangeRanges(c, ranges);
          const view = (list: Array<{ _id: string } & NewChange>) =>
            list.map(({ _id, kind, home_slug, price, card }) => ({ _id, kind, home_slug, price, card })).sort((x, y) => (x._id < y._id ? -1 : 1));
          const wanted = ranges.flatMap((r, i) => done[i]!.recorded.slice(r.from - 1, r.to).map((ch, k) => ({ _id: changeId(r.watchId, r.from + k), ...ch })));
          expect(view(together)).toEqual(view(wanted));
        },
      ),
      { numRuns: runs(40) },
    );
  });

  it('are kept one record per change while a copy of a build before runs is alive, and in runs once it is gone', async () => {
    const c = mongo.collections;
    const id = `w_runs${String(++watches).padStart(10, '0')}`;
    await c.watches.insertOne(watchRecord(id, 0));
    const record = async (size: number): Promise<void> => {
      const watch = (await c.watches.findOne({ _id: id }))!;
      const changes = Array.from({ length: size }, (_, i) => change(1, watch.changes + 1 + i));
      await appendManyChanges(c, [{ watch, changes, moves: { hold: new Map(), release: [] } }], new Date());
    };
    // A copy of that build: its record says nothing of runs. A copy of this build says it reads them.
    const expires_at = new Date(Date.now() + 60_000);
    await c.indexerState.insertOne({ _id: 'reader|old-copy', kind: 'reader', alias: 'homes-v1', mapping_version: 'v1', host: 'old', pid: 1, expires_at });
    await c.indexerState.insertOne({
      _id: 'reader|new-copy',
      kind: 'reader',
      alias: 'homes-v1',
      mapping_version: 'v1',
      reads_change_runs: true,
      host: 'new',
      pid: 2,
      expires_at,
    });
    await record(5);
    const singles = await c.watchChanges.find({ watch_id: id }).toArray();
    expect(singles.map((d) => ('seq' in d ? d.seq : null)).sort()).toEqual([1, 2, 3, 4, 5]);
    await c.indexerState.deleteOne({ _id: 'reader|old-copy' });
    await record(5);
    expect(await c.watchChanges.countDocuments({ watch_id: id })).toBe(6);
    const expected = Array.from({ length: 10 }, (_, i) => ({ seq: i + 1, ...change(1, i + 1) }));
    expect((await changesBetween(c, id, 1, 10)).map(({ seq, kind, home_slug, price, card }) => ({ seq, kind, home_slug, price, card }))).toEqual(expected);
    await c.indexerState.deleteOne({ _id: 'reader|new-copy' });
  });
});
