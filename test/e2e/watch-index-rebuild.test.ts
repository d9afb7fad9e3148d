/**
 * The watches' index is derived from MongoDB, the truth (services/watches/watch-index.ts,
 * rebuildWatchIndex): deleted whole, it is rebuilt from the stored watches (their criteria, or their
 * search read again for a record without them), ended watches left out, and a changed home finds the
 * same candidate watches as before; a worker that starts without it rebuilds it. A changed home's
 * reverse search finds every watch whose price limits its indexed prices can meet.
 */
import { startFixture, busiestCity, type Fixture } from '../support/fixture';
import { createLogger } from '../../services/kernel/logger';
import { todayIso } from '../../services/kernel/engine/dates';
import { rebuildWatchesFromStore } from '../../services/tools/watch-criteria';
import { watchedMatches } from '../../services/tools/watched-search';
import { candidateWatches, watchDocument, watchIndexExists, watchIndexOf, type WatchCriteria } from '../../services/watches/watch-index';
import type { HomeFacts } from '../../services/kernel/store/home-facts';
import { homeFacts } from '../../services/watches/matching';
import { openWatchMatcher } from '../../services/watch-matcher';

let fx: Fixture;
let city: string;

beforeAll(async () => {
  fx = await startFixture({ homes: 40, seed: 9 });
  city = await busiestCity(fx);
});
afterAll(async () => {
  await fx?.close();
});

async function save(search: Record<string, unknown>, email: string): Promise<{ watch_id: string; token: string }> {
  const res = await fetch(`${fx.url}/api/public/watches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ search, email, guest_consent: true }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { watch_id: string; token: string };
}

async function dropWatchIndex(): Promise<void> {
  const alias = watchIndexOf(fx.config.homesAlias);
  await fx.es.indices.delete({ index: Object.keys(await fx.es.indices.get({ index: alias })) });
  expect(await watchIndexExists(fx.svc.deps)).toBe(false);
}

describe('the watches index', () => {
  it('is rebuilt from MongoDB with the live watches, and finds the same candidates', async () => {
    const plain = await save({ market: city }, 'rebuild-1@example.com');
    const roomy = await save({ market: city, min_bedrooms: 2 }, 'rebuild-2@example.com');
    const ended = await save({ market: city, parking: true }, 'rebuild-3@example.com');
    expect((await fetch(`${fx.url}/api/public/watches/${ended.token}`, { method: 'DELETE' })).status).toBe(204);
    // A record saved without its criteria: its search is read again.
    await fx.mongo.collections.watches.updateOne({ _id: roomy.watch_id }, { $unset: { criteria: '' } });

    const today = todayIso(new Date());
    const { matches } = await watchedMatches(fx.svc.deps, { market: city }, today);
    const homes = await fx.mongo.collections.homes.find({ _id: { $in: matches.slice(0, 10).map((m) => m.homeId) } }).toArray();
    const facts: HomeFacts[] = homes.map((h) => ({ homeId: h._id, market_slug: h.market_slug, bedrooms: h.bedrooms, flags: [], bands: {} }));
    const before = await candidateWatches(fx.svc.deps, facts, today);
    expect(before.has(plain.watch_id)).toBe(true);

    await dropWatchIndex();
    expect((await candidateWatches(fx.svc.deps, facts, today)).size).toBe(0);
    expect(await rebuildWatchesFromStore(fx.svc.deps, today)).toBe(2);
    const after = await candidateWatches(fx.svc.deps, facts, today);
    expect(after).toEqual(before);
    // Answers of one watch each: a home that meets two watches has them paged, and finds the same.
    expect(facts.some((f) => [...after.values()].filter((homes) => homes.includes(f.homeId)).length > 1)).toBe(true);
    expect(await candidateWatches(fx.svc.deps, facts, today, { homesPerRequest: 100, perAnswer: 1, perPage: 1 })).toEqual(after);
    // Every home of the fixture, every other one asked as if of another market (markets interleaved), three to a request (sorted by market): each finds what it finds alone.
    const all = (await fx.mongo.collections.homes.find({}).toArray()).map((h, i) => ({
      homeId: h._id,
      market_slug: i % 2 ? h.market_slug : 'elsewhere',
      bedrooms: h.bedrooms,
      flags: [],
      bands: {},
    }));
    expect(new Set(all.map((f) => f.market_slug)).size).toBeGreaterThan(1);
    const alone = new Map<string, string[]>();
    for (const home of all)
      for (const id of (await candidateWatches(fx.svc.deps, [home], today)).keys()) alone.set(id, [...(alone.get(id) ?? []), home.homeId]);
    expect(alone.size).toBeGreaterThan(0);
    expect(await candidateWatches(fx.svc.deps, all, today, { homesPerRequest: 3, perAnswer: 600, perPage: 60_000 })).toEqual(alone);
    expect(after.has(ended.watch_id)).toBe(false);
    expect([...after.keys()].sort()).toEqual([plain.watch_id, roomy.watch_id].filter((id) => before.has(id)).sort());

    // A second rebuild replaces the first index whole.
    expect(await rebuildWatchesFromStore(fx.svc.deps, today)).toBe(2);
    expect(Object.keys(await fx.es.indices.get({ index: watchIndexOf(fx.config.homesAlias) }))).toHaveLength(1);
  });

  it('is rebuilt by a worker that starts without it', async () => {
    const w = await save({ market: city }, 'rebuild-4@example.com');
    await dropWatchIndex();
    const worker = await openWatchMatcher(fx.config, createLogger('silent', 'indexer'));
    try {
      const ids = (await fx.es.search({ index: watchIndexOf(fx.config.homesAlias), size: 100, _source: false })).hits.hits.map((h) => h._id);
      expect(ids).toContain(w.watch_id);
    } finally {
      await worker.close();
    }
  });
});

describe('the reverse search of a changed home', () => {
  it('finds a watch whose market, bedroom bounds and price limits the home meets exactly, none a dollar or a bedroom past them, and those an older build indexed', async () => {
    const today = todayIso(new Date());
    const { matches } = await watchedMatches(fx.svc.deps, { market: city }, today);
    const [facts] = await homeFacts(fx.svc.deps, [matches[0]!.homeId]);
    const reference = facts!.reference!;
    const [cell, band] = Object.entries(facts!.bands).find(([, b]) => b.hi !== undefined)!;
    const { lo, hi } = { lo: band.lo, hi: band.hi! };
    const watch = (id: string, price: Partial<WatchCriteria>): WatchCriteria => ({
      watch_id: id,
      market_slug: facts!.market_slug,
      flags: [],
      expires_on: '2099-01-01',
      ...price,
    });
    const criteria = [
      watch('w_ref_max_at', { price_cell: 'reference', price_max: reference }),
      watch('w_ref_max_under', { price_cell: 'reference', price_max: reference - 1 }),
      watch('w_ref_min_at', { price_cell: 'reference', price_min: reference }),
      watch('w_ref_min_over', { price_cell: 'reference', price_min: reference + 1 }),
      watch('w_band_max_at_lo', { price_cell: cell, price_max: lo }),
      watch('w_band_max_under_lo', { price_cell: cell, price_max: lo - 1 }),
      watch('w_band_min_at_hi', { price_cell: cell, price_min: hi }),
      watch('w_band_min_over_hi', { price_cell: cell, price_min: hi + 1 }),
      watch('w_band_inside', { price_cell: cell, price_min: lo - 100, price_max: hi + 100 }),
      watch('w_no_band', { price_cell: '209901_30', price_min: 1, price_max: 2 }),
      watch('w_no_limits', {}),
      watch('w_other_market', { market_slug: 'no-such-market' }),
      { ...watch('w_no_market', {}), market_slug: undefined },
      watch('w_bedrooms_within', { min_bedrooms: facts!.bedrooms, max_bedrooms: facts!.bedrooms }),
      watch('w_bedrooms_over', { min_bedrooms: facts!.bedrooms + 1 }),
      watch('w_bedrooms_under', { max_bedrooms: facts!.bedrooms - 1 }),
    ];
    const index = watchIndexOf(fx.config.homesAlias);
    // A watch indexed by a build before the price fields: none of them, a candidate of every price.
    const before = watch('w_indexed_before_prices', {});
    // One indexed before its market and bedroom bounds were always written (its price fields are): found all the same.
    const {
      min_bedrooms: _min,
      max_bedrooms: _max,
      ...beforeBounds
    } = watchDocument(watch('w_indexed_before_bounds', { price_cell: 'reference', price_max: reference }));
    await fx.es.bulk({
      refresh: true,
      operations: [
        ...criteria.flatMap((c) => [{ index: { _index: index, _id: c.watch_id } }, watchDocument(c)]),
        { index: { _index: index, _id: before.watch_id } },
        before,
        { index: { _index: index, _id: beforeBounds.watch_id } },
        beforeBounds,
      ],
    });
    criteria.push(before, beforeBounds);
    const found = await candidateWatches(fx.svc.deps, [facts!], today);
    const ours = [...found.keys()].filter((id) => criteria.some((c) => c.watch_id === id)).sort();
    expect(ours).toEqual([
      'w_band_inside',
      'w_band_max_at_lo',
      'w_band_min_at_hi',
      'w_bedrooms_within',
      'w_indexed_before_bounds',
      'w_indexed_before_prices',
      'w_no_band',
      'w_no_limits',
      'w_no_market',
      'w_ref_max_at',
      'w_ref_min_at',
    ]);
    await fx.es.bulk({ refresh: true, operations: criteria.map((c) => ({ delete: { _index: index, _id: c.watch_id } })) });
  });
});
