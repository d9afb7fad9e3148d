/**
 * Which shard of the homes index holds a home's document: the one its market's routing key routes
 * to. Every search of the request path names one market (a display city lies inside one), so it
 * reads that one shard instead of every market's documents; the market list and searches that cross
 * markets read them all (docs/decisions.md, "Shards and routing").
 *
 * A market's key is chosen once, by the indexer, so that markets spread over the shards one by one
 * (a market's own slug would hash some of them onto the same shard, and a search pays for every
 * market of its shard). The keys live in MongoDB beside the indexer's other state and are only ever
 * added to: the indexer writes with them and the service searches with them, and a key, once given,
 * never changes, whatever index the alias points at.
 */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from './collections';

/** Market slug → routing key. */
export type RoutingKeys = Readonly<Record<string, string>>;

/** The indexer state record that holds the keys. */
export const ROUTING_KEYS_ID = 'market_routing';

/** A market without a key has no home indexed (the indexer gives every market its key before it indexes): its slug routes nowhere in particular. */
export function homeRouting(marketSlug: string, keys: RoutingKeys): string {
  return keys[marketSlug] ?? marketSlug;
}

export async function readRoutingKeys(state: Collection<IndexerStateRecord>): Promise<RoutingKeys> {
  const record = await state.findOne({ _id: ROUTING_KEYS_ID });
  const keys = record?.keys;
  if (keys === null || typeof keys !== 'object') return {};
  return Object.fromEntries(Object.entries(keys as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Adds keys (the indexer, under its lease); the ones already given stay as they are. */
export async function addRoutingKeys(state: Collection<IndexerStateRecord>, added: RoutingKeys): Promise<RoutingKeys> {
  const keys = { ...added, ...(await readRoutingKeys(state)) };
  await state.updateOne({ _id: ROUTING_KEYS_ID }, { $set: { keys } }, { upsert: true });
  return keys;
}

/** How often the service reads the keys again in the background (they change only if the indexer's state was lost and rebuilt). */
const REFRESH_MS = 60_000;

/**
 * The service's copy of the keys: read at start, read again whenever a market has none there (a
 * market the indexer keyed after the copy was read; a market is keyed at the indexer's next run
 * after it appears, so this lasts minutes at most), and refreshed in the background once a minute.
 * Keys never change while the indexer's state is kept, so a key in the copy is right whatever index
 * the alias points at; if that state is lost, the indexer rebuilds with new keys (incremental.ts)
 * and the copies follow within a minute.
 */
export class RoutingKeysCache {
  private keys: RoutingKeys = {};
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<RoutingKeys> | null = null;

  constructor(
    private readonly read: () => Promise<RoutingKeys>,
    private readonly now: () => number = Date.now,
  ) {}

  async keyOf(market: string): Promise<string> {
    const held = this.keys[market];
    if (held === undefined) return homeRouting(market, await this.reload());
    if (this.now() - this.readAt >= REFRESH_MS) void this.reload().catch(() => undefined);
    return held;
  }

  /** Reads the keys now (at start, so the first searches need not); a failure is left to the first search that needs them. */
  async warm(): Promise<void> {
    await this.reload().catch(() => undefined);
  }

  private reload(): Promise<RoutingKeys> {
    this.reading ??= this.read()
      .then((keys) => {
        this.keys = keys;
        this.readAt = this.now();
        return keys;
      })
      .finally(() => (this.reading = null));
    return this.reading;
  }
}
