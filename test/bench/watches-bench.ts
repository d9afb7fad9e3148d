/**
 * Watches (`--only watches`): 10,000 live watches on the bench world (each a market, a number of
 * bedrooms, a monthly price range of $1,000, half of them dated: searches of the breadth the tool
 * saves, at most WATCH_MAX_MATCHES homes), their index rebuilt from MongoDB and timed. The watches
 * hold their first matches of the 1,000 sampled homes, as saving them would (decided by the matching's
 * own code). Then each of those homes changes price by a factor drawn in [0.85, 1.15], indexed by an
 * incremental run without the matching, put back by another (the run without watches is the mean of the
 * two), and changed again, indexed with it (batches of MATCH_BATCH, as the worker runs it): the run's cost with and without watches, and each recorded
 * change's delay from its inventory change. The watches, their changes and their index are removed at
 * the end and the homes' prices put back.
 */
import { incrementalRun } from '../../indexer/incremental';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import type { WatchRecord } from '../../services/kernel/store/watch-records';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import type { Deps } from '../../services/deps';
import { addDays, todayIso } from '../../services/kernel/engine/dates';
import { decideWatches } from '../../services/tools/watch-decisions';
import { moveManyMatches } from '../../services/watches/store';
import { rebuildWatchesFromStore } from '../../services/tools/watch-criteria';
import { matchWatchesFor } from '../../services/tools/watch-matching-run';
import { MATCH_BATCH, openMatchingDeps } from '../../services/watch-matcher';
import { createLogger } from '../../services/kernel/logger';
import { watchIndexOf } from '../../services/watches/watch-index';
import { fmt, percentile } from './load';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendDueWebhooks } from '../../services/watches/webhook-sender';
import type { BenchContext } from './store-bench';

const WATCHES = 10_000;
const CHANGED = 1_000;
/** The matching stops being measured past this: the section must not hold the bench for long. */
const MATCHING_BUDGET_MS = 240_000;

const seconds = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e9;

async function clearWatches(ctx: BenchContext): Promise<void> {
  const c = ctx.mongo;
  for (const coll of [c.watches, c.watchChanges, c.watchCards, c.watchJournal, c.watchMatches, c.watchOwners, c.watchOutbox]) await coll.deleteMany({});
  const alias = watchIndexOf(ctx.config.homesAlias);
  if (await ctx.es.indices.exists({ index: alias })) await ctx.es.indices.delete({ index: Object.keys(await ctx.es.indices.get({ index: alias })) });
}

/** Every WEBHOOK_EVERY-th watch sends its changes to the bench's receiver too. */
const WEBHOOK_EVERY = 10;

/**
 * 10,000 watch records as watch_search_tool saves them, but their criteria, which the rebuild of their
 * index reads from their searches as the service does; their first matches are held apart
 * (holdFirstMatches). One in WEBHOOK_EVERY has a webhook to `receiver`.
 */
function watchRecords(ctx: BenchContext, markets: string[], receiver: string): WatchRecord[] {
  const s = ctx.sample;
  return Array.from({ length: WATCHES }, (_, i) => {
    const id = `w_bench${String(i).padStart(11, '0')}`;
    const market = s.pick(markets);
    const bedrooms = s.int(0, 3);
    const dated = i % 2 === 0;
    const start = addDays(ctx.today, s.int(7, 90));
    const max = s.int(20, 90) * 100;
    const search = {
      market,
      min_bedrooms: bedrooms,
      max_bedrooms: bedrooms,
      min_price: max - 1_000,
      max_price: max,
      price_unit: 'per_month',
      ...(dated ? { start_date: start, end_date: addDays(start, s.int(30, 120)) } : {}),
    };
    const expires_on = dated ? start : addDays(ctx.today, 90);
    return {
      _id: id,
      token_hash: id,
      email: `bench-${i % 1_000}@example.com`,
      consent: { wording: 'bench', wording_version: 'bench', via: 'guest_consent', transport: 'http' },
      search,
      webhook: i % WEBHOOK_EVERY === 0 ? { url: `${receiver}/hook/${id}`, secret: 'whsec_' + Buffer.from(id).toString('base64') } : null,
      created_at: new Date(),
      expires_on,
      ended_at: null,
      ended_reason: null,
      changes: 0,
      delivered: 0,
    };
  });
}

/**
 * What each watch matches of the sampled homes now, held as saving the watch holds its first matches
 * (tools/watch-search.ts): the watches' questions decided by the matching's own code. Returns the pairs held.
 */
async function holdFirstMatches(deps: Deps, records: readonly WatchRecord[], homes: readonly HomeRecord[]): Promise<number> {
  const byMarket = new Map<string, string[]>();
  for (const h of homes) byMarket.set(h.market_slug, [...(byMarket.get(h.market_slug) ?? []), h._id]);
  const questions = records.map((watch) => ({ watch, homeIds: byMarket.get(String(watch.search.market)) ?? [] }));
  const answers = await decideWatches(deps, questions, todayIso(new Date()));
  const moves = [...answers].flatMap(([watchId, answer]) =>
    answer instanceof Error ? [] : [{ watchId, hold: new Map(answer.map((m) => [m.homeId, { price: m.price, slug: m.slug }])), release: [] }],
  );
  await moveManyMatches(deps.mongo, moves);
  return moves.reduce((n, m) => n + m.hold.size, 0);
}

/** Sets each home's monthly and nightly rates to its factor × the originals (1 when none), records the change, returns when it was recorded. */
async function changePrices(ctx: BenchContext, originals: Map<string, { monthly: number; nightly: number }>, factors?: Map<string, number>): Promise<bigint> {
  const factorOf = (id: string): number => factors?.get(id) ?? 1;
  await ctx.mongo.homes.bulkWrite(
    [...originals].map(([id, o]) => ({
      updateOne: {
        filter: { _id: id },
        update: {
          $set: { monthly_rate_cents: Math.round(o.monthly * factorOf(id)), nightly_rate_cents: Math.round(o.nightly * factorOf(id)), updated_at: new Date() },
        },
      },
    })),
    { ordered: false },
  );
  await recordChanges(ctx.mongo.inventoryChanges, 'bench', { homes: [...originals.keys()] });
  return process.hrtime.bigint();
}

export async function watchesBench(ctx: BenchContext): Promise<void> {
  const { say, mongo, es, config } = ctx;
  say('## Watches');
  say('');
  // A webhook receiver on this machine: when each change (its webhook-id) arrived.
  const arrived = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const id = req.headers['webhook-id'];
    if (typeof id === 'string' && !arrived.has(id)) arrived.set(id, Number(process.hrtime.bigint()));
    req.resume();
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The worker's own clients, with its batch deadline (services/watch-matcher.ts); the receiver's host allowed.
  const matching = await openMatchingDeps({ ...config, watchWebhookAllowHosts: ['127.0.0.1'] }, createLogger('warn', 'indexer'));
  const { deps } = matching;
  await clearWatches(ctx);
  const markets = (await mongo.markets.find({}, { projection: { slug: 1 } }).toArray()).map((m) => m.slug);
  const records = watchRecords(ctx, markets, receiverUrl);
  for (let i = 0; i < records.length; i += 1_000) await mongo.watches.insertMany(records.slice(i, i + 1_000));

  const rebuiltAt = process.hrtime.bigint();
  const indexed = await rebuildWatchesFromStore(deps, ctx.today);
  const rebuild = seconds(rebuiltAt);
  say(`- ${indexed} live watches over ${markets.length} markets; their index rebuilt from MongoDB in **${rebuild.toFixed(1)} s** (target ≤ 30 s)`);

  const ids = ctx.sample.homeIds(CHANGED);
  const homes = await mongo.homes.find({ _id: { $in: ids } }).toArray();
  const originals = new Map(homes.map((h) => [h._id, { monthly: h.monthly_rate_cents, nightly: h.nightly_rate_cents }]));
  const factors = new Map(ids.map((id) => [id, 0.85 + ctx.sample.int(0, 30) / 100]));
  // As the worker runs them (indexer/schedule.ts): no merge started after each run, which would share the
  // machine with the matching that follows it; the worker merges after a quiet minute.
  const opts = { alias: config.homesAlias, indexPrefix: config.homesIndexPrefix, mergeAfterRun: false };
  try {
    const heldAt = process.hrtime.bigint();
    const held = await holdFirstMatches(deps, records, homes);
    say(`- the watches hold ${held} first matches of the ${homes.length} sampled homes (decided in ${fmt(seconds(heldAt))} s)`);
    // Without the matching: each home's price moves by its factor; then back, still without it. The same
    // work twice: the run without watches is the mean of the two (one run alone moves by up to 1 s).
    await changePrices(ctx, originals, factors);
    const plainAt = process.hrtime.bigint();
    const plain = await incrementalRun(es, mongo, opts);
    const forth = seconds(plainAt);
    await changePrices(ctx, originals);
    const backAt = process.hrtime.bigint();
    await incrementalRun(es, mongo, opts);
    const back = seconds(backAt);
    const withoutS = (forth + back) / 2;

    // With it: the same moves, matched in batches as the worker matches them.
    const changedAt = await changePrices(ctx, originals, factors);
    const delays: number[] = [];
    const recordedAt = new Map<string, number>();
    let recorded = 0;
    let candidates = 0;
    let cut = false;
    const steps = { candidates: 0, reads: 0, decide: 0, writes: 0 };
    let sending = 0;
    const runAt = process.hrtime.bigint();
    const run = await incrementalRun(es, mongo, {
      ...opts,
      onWriting: async (changed, written, indexed) => {
        for (let i = 0; i < changed.length && !cut; i += MATCH_BATCH) {
          const outcome = await matchWatchesFor(deps, changed.slice(i, i + MATCH_BATCH), new Date(), written, indexed);
          const delay = seconds(changedAt);
          for (const ch of outcome.changes) recordedAt.set(ch._id, Number(process.hrtime.bigint()));
          for (let n = 0; n < outcome.changes.length; n++) delays.push(delay);
          recorded += outcome.changes.length;
          candidates += outcome.watches;
          for (const k of Object.keys(steps) as Array<keyof typeof steps>) steps[k] += outcome.steps[k];
          if (Number(process.hrtime.bigint() - runAt) / 1e6 > MATCHING_BUDGET_MS) cut = true;
        }
      },
    });
    const withS = seconds(runAt);
    // As the worker does right after each incremental run (indexer/worker.ts, afterIncremental).
    const sentAt = process.hrtime.bigint();
    await sendDueWebhooks(deps);
    sending += seconds(sentAt);
    delays.sort((a, b) => a - b);
    say(
      `- incremental run of ${plain.documents} changed homes: **${fmt(withoutS)} s** without watches (${fmt(forth)} s, and ${fmt(back)} s back), **${fmt(withS)} s** with the matching ` +
        `(**${(withS / withoutS).toFixed(1)} ×**; target ≤ 2 ×)${cut ? `, the matching cut at ${MATCHING_BUDGET_MS / 1000} s` : ''}`,
    );
    say(
      `- ${recorded} changes recorded for ${candidates} candidate watches (${run.documents} homes); delay from the inventory change to the change recorded: ` +
        (delays.length ? `p50 **${fmt(percentile(delays, 50))} s**, p95 **${fmt(percentile(delays, 95))} s** (target p95 ≤ 5 s)` : 'none recorded'),
    );
    say(
      `- where the matching's time goes: reverse search ${fmt(steps.candidates / 1000)} s, reading the watches and what they hold ${fmt(steps.reads / 1000)} s, ` +
        `deciding ${fmt(steps.decide / 1000)} s, writing ${fmt(steps.writes / 1000)} s; after the run, sending the webhooks due ${fmt(sending)} s`,
    );
    const sent = [...recordedAt].flatMap(([id, at]) => (arrived.has(id) ? [(arrived.get(id)! - at) / 1e9] : [])).sort((a, b) => a - b);
    const owed = [...recordedAt.keys()].filter((id) => records[Number(id.slice('w_bench'.length, id.indexOf('.')))]!.webhook !== null).length;
    say(
      `- webhooks: ${sent.length} of the ${owed} changes of watches with one received; delay from the change recorded to its webhook received: ` +
        (sent.length ? `p50 **${fmt(percentile(sent, 50))} s**, p95 **${fmt(percentile(sent, 95))} s** (target ≤ 1 s)` : 'none received'),
    );
  } finally {
    receiver.close();
    // The bench world as it was: the original prices, no watches.
    await changePrices(ctx, originals);
    await incrementalRun(es, mongo, opts);
    await clearWatches(ctx);
    matching.esNodes.close();
    await matching.mongo.close();
    await matching.es.close();
  }
  say('');
}
