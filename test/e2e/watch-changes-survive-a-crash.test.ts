/**
 * Recording a watch's changes is exact across a crash (services/watches/store.ts, appendManyChanges): the
 * matching is stopped at each of its writes in turn (the changes, the journal's parts and commit, the
 * counters, the match state, the journal's end), as a worker killed there would stop, and the next matching of the
 * same homes (the incremental run applied again) leaves each change in the feed exactly once, with no
 * change lost and none added by a later matching. Real stores; the crash is a write that throws.
 */
import { startFixture, busiestCity, type Fixture } from '../support/fixture';
import { incrementalRun } from '../../indexer/incremental';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { todayIso } from '../../services/kernel/engine/dates';
import type { Collections } from '../../services/kernel/store/collections';
import { matchWatchesFor } from '../../services/tools/watch-matching-run';
import { watchedMatches } from '../../services/tools/watched-search';
import { eraseGuest } from '../../services/booking-intents/erase';

let fx: Fixture;
let city: string;
let homeId: string;
let homeSlug: string;
let published = true;

beforeAll(async () => {
  fx = await startFixture({ homes: 40, seed: 5 });
  city = await busiestCity(fx);
  const { matches } = await watchedMatches(fx.svc.deps, { market: city }, todayIso(new Date()));
  homeId = matches[0].homeId;
  homeSlug = matches[0].slug;
});
afterAll(async () => {
  await fx?.close();
});

type Method = (...args: unknown[]) => unknown;

/** `target` with its method `name` replaced by `wrap(the method)`; every other member as it is. */
function withMethod<T extends object>(target: T, name: string, wrap: (original: Method) => Method): T {
  return new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as Method).bind(t);
      return prop === name ? wrap(bound) : bound;
    },
  });
}

/** The stores with one write that throws the `nth` time it is called: the worker dies there. */
function crashingAt(c: Collections, collection: keyof Collections, method: string, nth: number): Collections {
  let calls = 0;
  const crashing = withMethod(
    c[collection],
    method,
    (original) =>
      (...args) =>
        ++calls === nth ? Promise.reject(new Error(`crash at ${String(collection)}.${method}`)) : original(...args),
  );
  return { ...c, [collection]: crashing } as Collections;
}

async function saveWatch(email: string): Promise<{ watch_id: string; token: string }> {
  const res = await fetch(`${fx.url}/api/public/watches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ search: { market: city }, email, guest_consent: true }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { watch_id: string; token: string };
}

async function feed(token: string): Promise<string[]> {
  const res = await fx.get(`/api/public/watches/${token}/changes`);
  expect(res.status).toBe(200);
  return (res.body.changes as Array<{ change_id: string; kind: string; home?: { slug?: string } }>).map(
    (c) => `${c.change_id} ${c.kind}${c.home ? ` card ${c.home.slug}` : ''}`,
  );
}

/** A change of the home as the feed shows it: an entered home with its card. */
function shown(watchId: string, kind: 'entered' | 'left'): string {
  return `${watchId}.1 ${kind}${kind === 'entered' ? ` card ${homeSlug}` : ''}`;
}

/** Publishes or unpublishes the home and indexes it, without matching: the run the crash interrupts is the matching. */
async function flipHome(): Promise<'entered' | 'left'> {
  published = !published;
  await fx.mongo.collections.homes.updateOne({ _id: homeId }, { $set: { published, updated_at: new Date() } });
  await recordChanges(fx.mongo.collections.inventoryChanges, 'test', { homes: [homeId] });
  await incrementalRun(fx.es, fx.mongo.collections, { alias: fx.config.homesAlias, indexPrefix: fx.config.homesIndexPrefix });
  return published ? 'entered' : 'left';
}

describe('a crash while a change is recorded', () => {
  let previous: string | null = null;

  // Each step, and whether the feed shows the batch when the crash stops the matching there (from the counters' move).
  it.each([
    ['the changes under their numbered ids', 'watchChanges', 'insertMany', 1, false],
    // (the home enters this time: its change has a card)
    ['the cards', 'watchCards', 'insertMany', 1, false],
    ["the journal's parts", 'watchJournal', 'bulkWrite', 1, false],
    ["the journal's commit", 'watchJournal', 'replaceOne', 1, false],
    ['the counters', 'watches', 'bulkWrite', 1, false],
    ['the match state', 'watchMatches', 'bulkWrite', 1, true],
    ["the journal's end", 'watchJournal', 'deleteOne', 1, true],
  ] as const)('at %s neither loses nor repeats the change', async (_step, collection, method, nth, recorded) => {
    // One live watch at a time, so the crash falls inside its batch.
    if (previous) expect((await fetch(`${fx.url}/api/public/watches/${previous}`, { method: 'DELETE' })).status).toBe(204);
    const watch = await saveWatch(`crash-${collection}-${method}@example.com`);
    previous = watch.token;
    const kind = await flipHome();

    const crashed = { ...fx.svc.deps, mongo: crashingAt(fx.mongo.collections, collection, method, nth) };
    await expect(matchWatchesFor(crashed, [homeId], new Date())).rejects.toThrow(/crash at/);
    // Whatever the crash left written, the feed shows a batch whole once the counters moved, and nothing of it before.
    expect(await feed(watch.token)).toEqual(recorded ? [shown(watch.watch_id, kind)] : []);

    // The run is applied again (its change log entries were not acknowledged): the same homes are matched.
    await matchWatchesFor(fx.svc.deps, [homeId], new Date());
    expect(await feed(watch.token)).toEqual([shown(watch.watch_id, kind)]);
    // And again: the watch holds what its search shows, so nothing more is recorded.
    expect((await matchWatchesFor(fx.svc.deps, [homeId], new Date())).changes).toEqual([]);
    expect(await feed(watch.token)).toEqual([shown(watch.watch_id, kind)]);
    const record = await fx.mongo.collections.watches.findOne({ _id: watch.watch_id });
    expect({ changes: record?.changes, pending: record?.pending ?? null }).toEqual({ changes: 1, pending: null });
  });
});

describe('a journal written by an earlier build', () => {
  it('is completed from the changes it holds: each in the feed once', async () => {
    const watch = await saveWatch('crash-earlier-journal@example.com');
    const kind = await flipHome();
    const slug = (await fx.mongo.collections.homes.findOne({ _id: homeId }))!.slug;
    const now = await watchedMatches(fx.svc.deps, { market: city }, todayIso(new Date()));
    const match = now.matches.find((m) => m.homeId === homeId);
    // What that build journaled for this change: the change itself, then the match state it leads to.
    await fx.mongo.collections.watches.updateOne(
      { _id: watch.watch_id },
      {
        $set: {
          changes: 1,
          pending: {
            at: new Date(),
            changes: [{ kind, home_slug: slug, price: match ? match.price : null, card: match ? match.card : null }],
            hold: match ? [{ home_id: homeId, price: match.price, slug }] : [],
            release: match ? [] : [homeId],
          },
        },
      },
    );
    // Readers see nothing of it until it completes.
    expect(await feed(watch.token)).toEqual([]);
    const outcome = await matchWatchesFor(fx.svc.deps, [homeId], new Date());
    const ours = outcome.changes.filter((c) => c.watch_id === watch.watch_id);
    expect(ours.map((c) => `${c._id} ${c.kind}`)).toEqual([`${watch.watch_id}.1 ${kind}`]);
    expect(await feed(watch.token)).toEqual([shown(watch.watch_id, kind)]);
    expect((await matchWatchesFor(fx.svc.deps, [homeId], new Date())).changes.filter((c) => c.watch_id === watch.watch_id)).toEqual([]);
    const record = await fx.mongo.collections.watches.findOne({ _id: watch.watch_id });
    expect({ changes: record?.changes, pending: record?.pending ?? null }).toEqual({ changes: 1, pending: null });
    expect((await fetch(`${fx.url}/api/public/watches/${watch.token}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('a watch erased while its batch is recorded', () => {
  it('leaves none of its changes or match state behind, and the batch of the others whole', async () => {
    const erased = await saveWatch('erased-mid-batch@example.com');
    const other = await saveWatch('kept-mid-batch@example.com');
    const kind = await flipHome();
    // erase-guest runs after the watches were read, just before the batch's changes are written: their
    // records, written after it deleted the guest's, are the batch's to remove.
    const c = fx.mongo.collections;
    const changes = withMethod(c.watchChanges, 'insertMany', (original) => async (...args) => {
      await eraseGuest(c, 'erased-mid-batch@example.com');
      return original(...args);
    });
    const outcome = await matchWatchesFor({ ...fx.svc.deps, mongo: { ...c, watchChanges: changes } }, [homeId], new Date());
    expect(outcome.changes.filter((ch) => ch.watch_id === erased.watch_id)).toEqual([]);
    expect(outcome.changes.filter((ch) => ch.watch_id === other.watch_id).map((ch) => `${ch._id} ${ch.kind}`)).toEqual([`${other.watch_id}.1 ${kind}`]);
    expect(await c.watchChanges.countDocuments({ watch_id: erased.watch_id })).toBe(0);
    const held = await c.watchMatches.findOne({ _id: homeId });
    expect(Object.keys(held?.held ?? {})).not.toContain(erased.watch_id);
    expect(await c.watchJournal.findOne({ _id: 'batch' })).toBeNull();
    expect(await feed(other.token)).toEqual([shown(other.watch_id, kind)]);
    expect((await fx.get(`/api/public/watches/${erased.token}/changes`)).status).toBe(404);
    expect((await fetch(`${fx.url}/api/public/watches/${other.token}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('a watch saved while a matching reads what the watches hold', () => {
  it('holds its first matches: none of them is recorded as entered, and one saved after the search keeps its own', async () => {
    if (!published) await flipHome();
    // The watches' index exists (made by the first watch saved), as on any deployment with watches.
    const first = await saveWatch('before-mid-matching@example.com');
    expect((await fetch(`${fx.url}/api/public/watches/${first.token}`, { method: 'DELETE' })).status).toBe(204);
    let saved: { watch_id: string; token: string } | undefined;
    let savedNow!: () => void;
    const gate = new Promise<void>((resolve) => (savedNow = resolve));
    const c = fx.mongo.collections;
    // The holds are read, then the watch is saved (holding the home), then the reverse search runs and finds it.
    let later: { watch_id: string; token: string } | undefined;
    const matches = withMethod(c.watchMatches, 'find', (original) => (...args) => {
      const read = () => (original(...args) as { toArray(): Promise<unknown[]> }).toArray();
      return {
        toArray: async () => {
          // Read again: one more watch was saved after the reverse search, its holds among those read.
          if (saved) {
            later ??= await saveWatch('saved-after-the-search@example.com');
            return read();
          }
          const found = await read();
          saved = await saveWatch('saved-mid-matching@example.com');
          savedNow();
          return found;
        },
      };
    });
    const es = withMethod(fx.es, 'msearch', (original) => async (...args) => {
      await gate;
      return original(...args);
    });
    const outcome = await matchWatchesFor({ ...fx.svc.deps, es, mongo: { ...c, watchMatches: matches } }, [homeId], new Date());
    expect(saved).toBeDefined();
    expect(outcome.changes.filter((ch) => ch.watch_id === saved!.watch_id)).toEqual([]);
    expect(await feed(saved!.token)).toEqual([]);
    // The watch saved after the search is not one of this matching's, and keeps what it holds.
    expect(later).toBeDefined();
    expect(Object.keys((await c.watchMatches.findOne({ _id: homeId }))?.held ?? {})).toEqual(expect.arrayContaining([saved!.watch_id, later!.watch_id]));
    for (const w of [saved!, later!]) expect((await fetch(`${fx.url}/api/public/watches/${w.token}`, { method: 'DELETE' })).status).toBe(204);
  });
});
