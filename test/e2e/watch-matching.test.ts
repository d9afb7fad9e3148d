/**
 * The matching of watches on the real stores: random watches (drawn with a fixed seed), then rounds of random inventory changes
 * (prices up and down, homes unpublished and published again) applied by the indexer's incremental
 * run; after each, the changes the matching records equal exactly the difference between each watch's
 * search run before and after the round (entered, left, a drop of 5 % or more), and none is recorded twice.
 */
import fc from 'fast-check';
import { startFixture, type Fixture } from '../support/fixture';
import { incrementalRun } from '../../indexer/incremental';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { todayIso } from '../../services/kernel/engine/dates';
import { matchWatchesFor } from '../../services/tools/watch-matching-run';
import { watchedMatches, type WatchedArgs } from '../../services/tools/watched-search';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import type { WatchChangeRecord } from '../../services/kernel/store/watch-records';
import { readChangeRanges } from '../../services/watches/store';
import { homeFacts, matchChangedHomes, type DecideWatches } from '../../services/watches/matching';
import { decideWatches } from '../../services/tools/watch-decisions';
import type { HomeFacts } from '../../services/kernel/store/home-facts';

let fx: Fixture;
let homes: HomeRecord[];
const watches: Array<{ id: string; search: WatchedArgs }> = [];

beforeAll(async () => {
  fx = await startFixture({ homes: 60, seed: 11 });
  homes = await fx.mongo.collections.homes.find({}).toArray();
  const markets = [...new Set(homes.map((h) => h.market_slug))];
  // Random watches (a fixed seed): each market's plain search, then searches drawn with or without
  // bedroom bounds, a required flag, price bounds and dates (a long or a short stay, a move-in date alone, Flex, a window).
  const drawn = fc.record(
    {
      market: fc.constantFrom(...markets),
      min_bedrooms: fc.constantFrom(0, 1, 2),
      parking: fc.constant(true),
      pets: fc.constant(true),
      min_price: fc.integer({ min: 800, max: 3000 }),
      max_price: fc.integer({ min: 1500, max: 6000 }),
      dates: fc.integer({ min: 10, max: 40 }),
      stay: fc.constantFrom('fixed', 'fixed', 'short', 'start', 'flex', 'window'),
      q: fc.constantFrom('parking', 'laundry', 'gym'),
    },
    { requiredKeys: ['market'] },
  );
  const stayOf = (kind: string, from: number): Partial<WatchedArgs> =>
    kind === 'flex'
      ? { start_date: addDays(fx.today, from), end_date: 'indefinite' }
      : kind === 'window'
        ? { start_date: addDays(fx.today, from), latest_start_date: addDays(fx.today, from + 10), nights: 45 }
        : kind === 'start'
          ? { start_date: addDays(fx.today, from) }
          : { start_date: addDays(fx.today, from), end_date: addDays(fx.today, from + (kind === 'short' ? 10 : 45)) };
  const searches: WatchedArgs[] = markets.map((market) => ({ market }));
  for (const d of fc.sample(drawn, { numRuns: 4 * markets.length, seed: 5 })) {
    const { dates, min_price, max_price, stay, ...rest } = d;
    // Limits in a month's terms, the lower under the upper (a nightly price compares with a thirtieth of them).
    const limits = [min_price, max_price].filter((v) => v !== undefined).sort((a, b) => a - b);
    const prices =
      limits.length === 2
        ? { min_price: limits[0], max_price: limits[1] }
        : min_price !== undefined
          ? { min_price }
          : max_price !== undefined
            ? { max_price }
            : {};
    searches.push({
      ...rest,
      ...(limits.length === 0 ? {} : { ...prices, price_unit: 'per_month' as const }),
      ...(dates === undefined ? {} : stayOf(stay ?? 'fixed', dates)),
    });
  }
  for (const [i, search] of searches.entries()) {
    const res = await fetch(`${fx.url}/api/public/watches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ search, email: `m${i % 5}-${Math.floor(i / 5)}@example.com`, guest_consent: true }),
    });
    const body = (await res.json()) as { watch_id: string };
    expect({ status: res.status, body }).toMatchObject({ status: 201 });
    watches.push({ id: body.watch_id, search });
  }
});
afterAll(async () => {
  await fx?.close();
});

function addDays(iso: string, n: number): string {
  return new Date(Date.parse(iso) + n * 86_400_000).toISOString().slice(0, 10);
}

/** What each watch's search matches now: home id → slug, price and the card the search shows. */
async function snapshot(): Promise<Map<string, Map<string, { slug: string; price: number; card: Record<string, unknown> }>>> {
  const out = new Map<string, Map<string, { slug: string; price: number; card: Record<string, unknown> }>>();
  for (const w of watches) {
    const { matches } = await watchedMatches(fx.svc.deps, w.search, todayIso(new Date()));
    out.set(w.id, new Map(matches.map((m) => [m.homeId, { slug: m.slug, price: m.price, card: m.card }])));
  }
  return out;
}

const change = fc.record({
  home: fc.nat(),
  kind: fc.constantFrom('price', 'price', 'unpublish', 'publish'),
  factor: fc.double({ min: 0.8, max: 1.25, noNaN: true }),
});

describe('watch matching', () => {
  it('records exactly the difference of each watch’s search before and after random changes, nothing twice', async () => {
    const seen = new Set<string>();
    const kinds = new Set<string>();
    /** Homes a run knew it left with no document (unpublished). */
    const gone = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 12 }), async (round) => {
        const before = await snapshot();
        const now = new Date();
        const touched = new Set<string>();
        for (const ch of round) {
          const home = homes[ch.home % homes.length];
          touched.add(home._id);
          const current = (await fx.mongo.collections.homes.findOne({ _id: home._id }))!;
          const set =
            ch.kind === 'price'
              ? {
                  monthly_rate_cents: Math.max(1, Math.round(current.monthly_rate_cents * ch.factor)),
                  nightly_rate_cents: Math.max(1, Math.round(current.nightly_rate_cents * ch.factor)),
                }
              : { published: ch.kind === 'publish' };
          await fx.mongo.collections.homes.updateOne({ _id: home._id }, { $set: { ...set, updated_at: now } });
        }
        await recordChanges(fx.mongo.collections.inventoryChanges, 'test', { homes: [...touched] });
        // The matching runs inside the incremental run, as the worker runs it (IndexerOptions.onWriting).
        const recordedIn: WatchChangeRecord[] = [];
        await incrementalRun(fx.es, fx.mongo.collections, {
          alias: fx.config.homesAlias,
          indexPrefix: fx.config.homesIndexPrefix,
          onWriting: async (ids, written, indexed) => {
            expect([...ids].sort()).toEqual([...touched].sort());
            // Started while the run's writes go on: the steps that ask the homes wait for `indexed`.
            recordedIn.push(...(await matchWatchesFor(fx.svc.deps, ids, new Date(), written, indexed)).changes);
            // The facts the run kept of the homes it wrote are the alias's, read after its refresh; a home it
            // knew to have no document (null) has none there.
            await indexed;
            const byId = (facts: HomeFacts[]) => new Map(facts.map((f) => [f.homeId, f]));
            expect(written?.size).toBeGreaterThan(0);
            expect(byId(await homeFacts(fx.svc.deps, [...written!.keys()]))).toEqual(new Map([...written!].filter(([, f]) => f !== null)));
            for (const [id, f] of written!) if (f === null) gone.add(id);
          },
        });
        const after = await snapshot();
        const outcome = { changes: recordedIn };

        const expected: string[] = [];
        const cards = new Map<string, Record<string, unknown>>();
        for (const w of watches) {
          const b = before.get(w.id)!;
          const a = after.get(w.id)!;
          for (const id of new Set([...b.keys(), ...a.keys()])) {
            const was = b.get(id);
            const is = a.get(id);
            if (is) cards.set(`${w.id} ${is.slug}`, is.card);
            if (is && !was) expected.push(`${w.id} entered ${is.slug} ${is.price}`);
            else if (was && !is) expected.push(`${w.id} left ${was.slug} null`);
            else if (was && is && is.price <= was.price * 0.95) expected.push(`${w.id} price_dropped ${is.slug} ${is.price}`);
          }
        }
        const recorded = outcome.changes.map((c) => `${c.watch_id} ${c.kind} ${c.home_slug} ${c.price}`);
        expect(recorded.sort()).toEqual(expected.sort());
        // A change shows the home's card as the watch's search shows it.
        for (const c of outcome.changes) if (c.kind !== 'left') expect(c.card).toEqual(cards.get(`${c.watch_id} ${c.home_slug}`));
        // And reads back from the store as recorded, card included (each card is kept once, apart from its changes).
        const ranges = new Map<string, { watchId: string; from: number; to: number }>();
        for (const c of outcome.changes) {
          const r = ranges.get(c.watch_id) ?? { watchId: c.watch_id, from: c.seq, to: c.seq };
          ranges.set(c.watch_id, { ...r, from: Math.min(r.from, c.seq), to: Math.max(r.to, c.seq) });
        }
        const stored = await readChangeRanges(fx.mongo.collections, [...ranges.values()]);
        expect(stored.sort((x, y) => (x._id < y._id ? -1 : 1))).toEqual([...outcome.changes].sort((x, y) => (x._id < y._id ? -1 : 1)));
        // Matching the same homes again records nothing: the watches hold what their searches show.
        expect((await matchWatchesFor(fx.svc.deps, [...touched], new Date())).changes).toEqual([]);
        for (const c of outcome.changes) {
          expect(seen.has(c._id)).toBe(false);
          seen.add(c._id);
          kinds.add(c.kind);
        }
      }),
      { numRuns: 6, endOnFailure: true, seed: 20261129 },
    );
    // The rounds did move homes in and out and down in price: the property was not held vacuously.
    expect([...kinds].sort()).toEqual(['entered', 'left', 'price_dropped']);
    expect(gone.size).toBeGreaterThan(0);
  });

  it('starts while the run writes, and asks the homes only once the writes are searchable', async () => {
    const home = homes.find((h) => h.published)!;
    const current = (await fx.mongo.collections.homes.findOne({ _id: home._id }))!;
    const monthly = Math.round(current.monthly_rate_cents * 0.9);
    await fx.mongo.collections.homes.updateOne({ _id: home._id }, { $set: { monthly_rate_cents: monthly, updated_at: new Date() } });
    await recordChanges(fx.mongo.collections.inventoryChanges, 'test', { homes: [home._id] });
    const indexedRate = async (): Promise<number | undefined> =>
      (await fx.es.search<{ monthly_rate: number }>({ index: fx.config.homesAlias, query: { ids: { values: [home._id] } } })).hits.hits[0]?._source
        ?.monthly_rate;
    expect(await indexedRate()).toBe(Math.round(current.monthly_rate_cents / 100));
    const today = todayIso(new Date());
    let calledBeforeSearchable: boolean | undefined;
    const decidedWhen: boolean[] = [];
    await incrementalRun(fx.es, fx.mongo.collections, {
      alias: fx.config.homesAlias,
      indexPrefix: fx.config.homesIndexPrefix,
      onWriting: async (ids, written, indexed) => {
        let searchable = false;
        // Called before the writes are searchable: `indexed` is not settled (an already settled one's reaction runs within these ticks).
        let settled = false;
        void indexed.then(() => void (settled = true));
        for (let tick = 0; tick < 3; tick++) await Promise.resolve();
        calledBeforeSearchable = !settled;
        // The run's writes, searchable a while later than the run says: the deciding waits for what it is handed.
        const late = indexed.then(() => new Promise<void>((resolve) => setTimeout(resolve, 300))).then(() => void (searchable = true));
        const decide: DecideWatches = (questions) => {
          decidedWhen.push(searchable);
          return decideWatches(fx.svc.deps, questions, today);
        };
        await matchChangedHomes(fx.svc.deps, ids, today, new Date(), decide, written, late);
        // What `indexed` promised: the alias answers with the new price.
        await indexed;
        expect(await indexedRate()).toBe(Math.round(monthly / 100));
      },
    });
    expect(calledBeforeSearchable).toBe(true);
    expect(decidedWhen).toEqual([true]);
  });
});
