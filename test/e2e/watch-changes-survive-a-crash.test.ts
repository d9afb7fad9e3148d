/**
 * Recording a watch's changes is exact across a crash (services/watches/store.ts, appendManyChanges): the
 * matching is stopped at each of its writes in turn (the journal on the watch, the changes, the match
 * state, the journal's clearing), as a worker killed there would stop, and the next matching of the
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

let fx: Fixture;
let city: string;
let homeId: string;
let published = true;

beforeAll(async () => {
  fx = await startFixture({ homes: 40, seed: 5 });
  city = await busiestCity(fx);
  const { matches } = await watchedMatches(fx.svc.deps, { market: city }, todayIso(new Date()));
  homeId = matches[0].homeId;
});
afterAll(async () => {
  await fx?.close();
});

/** The stores with one write that throws the `nth` time it is called: the worker dies there. */
function crashingAt(c: Collections, collection: keyof Collections, method: string, nth: number): Collections {
  let calls = 0;
  const target = c[collection] as unknown as Record<string | symbol, unknown>;
  const proxy = new Proxy(target, {
    get(t, prop) {
      const value = t[prop];
      if (prop === method && calls < nth && ++calls === nth) {
        return () => Promise.reject(new Error(`crash at ${String(collection)}.${method}`));
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
  return { ...c, [collection]: proxy } as Collections;
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
  return (res.body.changes as Array<{ change_id: string; kind: string; home_slug: string }>).map((c) => `${c.change_id} ${c.kind}`);
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

  it.each([
    ['the journal of the batch', 'watches', 'bulkWrite', 1],
    ['the changes under their numbered ids', 'watchChanges', 'bulkWrite', 1],
    ['the match state', 'watchMatches', 'bulkWrite', 1],
    ['the clearing of the journal', 'watches', 'bulkWrite', 2],
  ] as const)('at %s neither loses nor repeats the change', async (_step, collection, method, nth) => {
    // One live watch at a time, so the crash falls inside its batch.
    if (previous) expect((await fetch(`${fx.url}/api/public/watches/${previous}`, { method: 'DELETE' })).status).toBe(204);
    const watch = await saveWatch(`crash-${collection}-${method}@example.com`);
    previous = watch.token;
    const kind = await flipHome();

    const crashed = { ...fx.svc.deps, mongo: crashingAt(fx.mongo.collections, collection, method, nth) };
    await expect(matchWatchesFor(crashed, [homeId], new Date())).rejects.toThrow(/crash at/);
    // Whatever the crash left written, the feed shows no part of a batch it did not complete.
    expect(await feed(watch.token)).toEqual([]);

    // The run is applied again (its change log entries were not acknowledged): the same homes are matched.
    await matchWatchesFor(fx.svc.deps, [homeId], new Date());
    expect(await feed(watch.token)).toEqual([`${watch.watch_id}.1 ${kind}`]);
    // And again: the watch holds what its search shows, so nothing more is recorded.
    expect((await matchWatchesFor(fx.svc.deps, [homeId], new Date())).changes).toEqual([]);
    expect(await feed(watch.token)).toEqual([`${watch.watch_id}.1 ${kind}`]);
    const record = await fx.mongo.collections.watches.findOne({ _id: watch.watch_id });
    expect({ changes: record?.changes, pending: record?.pending ?? null }).toEqual({ changes: 1, pending: null });
  });
});
