/** Policies live in MongoDB; defaults are inserted when missing and never overwrite ops' edits. */
import type { Collections, PolicyRecord } from '../store/collections';
import { DEFAULT_POLICIES, POLICY_TOPICS } from './content';

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

export async function readPolicies(c: Collections, topic?: string): Promise<PolicyRecord[]> {
  const docs = await c.policies.find(topic ? { _id: topic } : {}).toArray();
  const order = new Map<string, number>(POLICY_TOPICS.map((t, i) => [t, i]));
  return docs.sort((a, b) => (order.get(a._id) ?? 99) - (order.get(b._id) ?? 99));
}
