/** Policies live in MongoDB; defaults are inserted when missing and never overwrite ops' edits. */
import type { Collections, PolicyRecord } from '../kernel/store/collections';
import { DEFAULT_POLICIES, POLICY_TOPICS } from './content';
import { cachedSnapshot } from '../markets/market-directory';

export async function ensurePolicies(c: Collections, now: Date): Promise<void> {
  await c.policies.bulkWrite(
    POLICY_TOPICS.map((topic) => ({
      updateOne: {
        filter: { _id: topic },
        update: { $setOnInsert: { topic, answer: DEFAULT_POLICIES[topic], updated_at: now } },
        upsert: true,
      },
    })),
    { ordered: false },
  );
}

/** The policy entries (eight small documents), read whole and kept for CACHE_TTL_SECONDS. */
export class PolicyCache {
  private readonly current: () => Promise<PolicyRecord[]>;

  constructor(c: Collections, ttlMs: number) {
    const order = new Map<string, number>(POLICY_TOPICS.map((t, i) => [t, i]));
    this.current = cachedSnapshot(
      async () => {
        const docs = await c.policies.find({}, { limit: 100 }).toArray();
        return docs.sort((a, b) => (order.get(a._id) ?? 99) - (order.get(b._id) ?? 99));
      },
      ttlMs,
      (docs) => docs.length === 0,
    );
  }

  async read(topic?: string): Promise<PolicyRecord[]> {
    const all = await this.current();
    return topic ? all.filter((p) => p._id === topic) : all;
  }
}
