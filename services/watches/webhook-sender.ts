/**
 * The webhooks of the watches (docs/contract.md, "What a watch reports"): each change POSTed as JSON,
 * signed per the Standard Webhooks specification (the `standardwebhooks` package: webhook-id is the
 * change_id, webhook-timestamp, webhook-signature with the watch's secret), in order per watch, at
 * least once: a change counts as delivered only on a 2xx, and the next is not sent before it. A
 * failure (any other status, a redirect, which is never followed, a URL that now resolves to a
 * refused address, no answer in WEBHOOK_TIMEOUT_MS) is retried with exponential backoff; a change
 * still failing 24 h after its first failure is given up (the feed keeps it) and the next one is
 * sent. A 410 ends the watch. Only the worker holding the indexer's lease calls it: one sender.
 */
import { Webhook } from 'standardwebhooks';
import type { Collections } from '../kernel/store/collections';
import type { WatchChangeRecord, WatchRecord } from '../kernel/store/watch-records';
import { changeView } from './change-view';
import { changesBetween, committedChanges, endWatch, readChangeRanges, type ChangeRange } from './store';
import { unindexWatch } from './watch-index';
import { Agent, fetch } from 'undici';
import { eachAtMost } from '../kernel/each-at-most';
import { findByIds } from '../kernel/store/by-ids';
import { pinnedLookup, vetWebhookUrl } from './webhook-url';
import type { Client } from '@elastic/elasticsearch';

export const WEBHOOK_TIMEOUT_MS = 5_000;
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 3_600_000;

/** The wait after the n-th failed attempt (1, 2, …): 5 s doubling, at most an hour. */
export const backoffMs = (attempts: number): number => Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

export interface SenderDeps {
  es: Client;
  mongo: Collections;
  config: { homesAlias: string; watchWebhookAllowHosts: string[] };
}

type Attempt = 'delivered' | 'gone' | 'failed';

/** Where a watch's webhook goes for one round of sends: its URL as just checked, and a connection pinned to its addresses. */
interface Target {
  url: URL;
  dispatcher: Agent;
}

async function post(target: Target, watch: WatchRecord, body: string, id: string, at: Date): Promise<Attempt> {
  const signature = new Webhook(watch.webhook!.secret).sign(id, at, body);
  try {
    const res = await fetch(target.url, {
      dispatcher: target.dispatcher,
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
    });
    await res.body?.cancel();
    if (res.status === 410) return 'gone';
    return res.status >= 200 && res.status < 300 ? 'delivered' : 'failed';
  } catch {
    return 'failed';
  }
}

/** What a round of sends writes once, for all its watches, when it ends: each watch's `delivered`, and the outbox entries done with. */
interface Round {
  delivered: Map<string, number>;
  done: string[];
}

/**
 * Sends a watch's undelivered changes in order until one fails; true when the watch is up to date (or
 * ended). Its changes are those the round read ahead for it (all of them) or read in one query, its
 * URL checked once and its connection kept for the round. A watch that sent everything leaves its new
 * `delivered` to the round's one write; before a failure is noted or a 410 ends the watch, it is
 * written at once.
 */
async function sendWatch(deps: SenderDeps, watch: WatchRecord, now: () => Date, round: Round, ahead?: readonly WatchChangeRecord[]): Promise<boolean> {
  const c = deps.mongo;
  if (!watch.webhook || watch.ended_at !== null) return true;
  const last = committedChanges(watch);
  if (watch.delivered >= last) return true;
  const changes = new Map((ahead ?? (await changesBetween(c, watch._id, watch.delivered + 1, last))).map((ch) => [ch.seq, ch]));
  let delivered = watch.delivered;
  const record = async (): Promise<void> => {
    if (delivered > watch.delivered) await c.watches.updateOne({ _id: watch._id }, { $set: { delivered } });
  };
  let target: Target | null = null;
  try {
    // The connection goes to the addresses just checked, never to a second answer of DNS.
    const vetted = await vetWebhookUrl(watch.webhook.url, deps.config.watchWebhookAllowHosts).catch(() => null);
    if (vetted) target = { url: vetted.url, dispatcher: new Agent(vetted.addresses ? { connect: { lookup: pinnedLookup(vetted.addresses) } } : {}) };
    for (let seq = watch.delivered + 1; seq <= last; seq++) {
      const change = changes.get(seq);
      if (change) {
        // The token is not kept, so no unwatch URL can be sent: the receiver ends the watch by answering 410.
        const body = JSON.stringify({ type: `watch.${change.kind}`, watch_id: watch._id, data: changeView(change) });
        const outcome: Attempt = target ? await post(target, watch, body, change._id, now()) : 'failed';
        if (outcome === 'gone') {
          await record();
          if (await endWatch(c, watch._id, 'webhook_gone', now())) await unindexWatch(deps, watch._id);
          return true;
        }
        if (outcome === 'failed' && !(await noteFailure(c, watch, delivered, now))) {
          await record();
          return false;
        }
        // Delivered, or past a day of failures: this change is done with, the next one is tried.
      }
      delivered = seq;
    }
  } finally {
    await target?.dispatcher.close().catch(() => undefined);
  }
  if (delivered > watch.delivered) round.delivered.set(watch._id, delivered);
  return true;
}

/**
 * Notes a failed attempt of the change after `delivered` in the outbox, with its backoff: false while
 * it is retried, true once it has failed for a day (it is given up). Changes delivered in this round
 * reset the count: the failures counted are this change's.
 */
async function noteFailure(c: Collections, watch: WatchRecord, delivered: number, now: () => Date): Promise<boolean> {
  const entry = delivered > watch.delivered ? null : await c.watchOutbox.findOne({ _id: watch._id });
  const attempts = (entry?.attempts ?? 0) + 1;
  const since = entry?.failing_since ?? now();
  if (now().getTime() - since.getTime() >= GIVE_UP_AFTER_MS) return true;
  await c.watchOutbox.updateOne(
    { _id: watch._id },
    { $set: { attempts, failing_since: since, next_at: new Date(now().getTime() + backoffMs(attempts)) } },
    { upsert: true },
  );
  return false;
}

/** Watches whose webhooks are sent at once. */
const SENDERS = 32;
/** A watch with at most this many changes to send has them read ahead with the round's others (a longer backlog is read on its own). */
const READ_AHEAD = 50;

/** The changes to send of the round's watches with a short backlog, read together by `_id` (a few requests for the whole round). */
async function readAhead(c: Collections, watches: readonly WatchRecord[]): Promise<Map<string, WatchChangeRecord[]>> {
  const ranges: ChangeRange[] = [];
  const out = new Map<string, WatchChangeRecord[]>();
  for (const w of watches) {
    const last = committedChanges(w);
    if (!w.webhook || w.ended_at !== null || last <= w.delivered || last - w.delivered > READ_AHEAD) continue;
    out.set(w._id, []);
    ranges.push({ watchId: w._id, from: w.delivered + 1, to: last });
  }
  for (const change of await readChangeRanges(c, ranges)) out.get(change.watch_id)?.push(change);
  return out;
}

/** Sends what is due: every watch of the outbox whose backoff has passed. Returns how many watches are up to date now. */
export async function sendDueWebhooks(deps: SenderDeps, now: () => Date = () => new Date()): Promise<number> {
  const c = deps.mongo;
  // The outbox holds only watches with changes to send: a small collection, read whole by the one sender.
  const due = (await c.watchOutbox.find({}).toArray()).filter((e) => e.next_at.getTime() <= now().getTime());
  if (due.length === 0) return 0;
  const watches = await findByIds(
    c.watches,
    due.map((e) => e._id),
  );
  const ahead = await readAhead(c, watches);
  const round: Round = { delivered: new Map(), done: [] };
  // Watches side by side (each in its own order), a bounded number of connections at once.
  await eachAtMost(SENDERS, watches, async (watch) => {
    if (await sendWatch(deps, watch, now, round, ahead.get(watch._id))) round.done.push(watch._id);
  });
  // What was delivered is written before the outbox lets go of it: a crash in between sends nothing twice,
  // a crash before both sends again (at least once). Entries of watches gone from the store go too.
  if (round.delivered.size > 0) {
    await c.watches.bulkWrite(
      [...round.delivered].map(([_id, delivered]) => ({ updateOne: { filter: { _id }, update: { $set: { delivered } } } })),
      { ordered: false },
    );
  }
  const known = new Set(watches.map((w) => w._id));
  const leaving = [...round.done, ...due.flatMap((e) => (known.has(e._id) ? [] : [e._id]))];
  if (leaving.length > 0)
    await c.watchOutbox.bulkWrite(
      leaving.map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
  return round.done.length;
}
