/**
 * What must hold after a fault run: every acknowledged booking intent is stored exactly once, under
 * the id the service gave; no email has two records; the alias points at one complete index (a
 * document for every published, undeleted home in MongoDB, every shard and replica allocated); no
 * other index of ours is left.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../../services/kernel/store/collections';
import type { Booking } from './traffic';

export interface Audit {
  acknowledged: number;
  emails: number;
  missing: string[];
  duplicated: string[];
  /** Emails acknowledged with two different intent ids. */
  split: string[];
  aliasTargets: string[];
  indexedDocuments: number;
  /** Published, undeleted homes in MongoDB: what a complete index holds. */
  homesToIndex: number;
  /** The alias's index health: green when every shard and replica is allocated. */
  health: string;
  leftovers: string[];
  ok: boolean;
}

export async function audit(es: Client, c: Collections, opts: { alias: string; prefix: string; acknowledged: readonly Booking[] }): Promise<Audit> {
  const idsByEmail = new Map<string, Set<string>>();
  for (const b of opts.acknowledged) idsByEmail.set(b.email, (idsByEmail.get(b.email) ?? new Set()).add(b.intentId));
  const emails = [...idsByEmail.keys()];
  const stored = await c.bookingIntents.find({ email: { $in: emails } }, { projection: { _id: 1, email: 1 } }).toArray();
  const storedByEmail = new Map<string, string[]>();
  for (const r of stored) storedByEmail.set(String(r.email), [...(storedByEmail.get(String(r.email)) ?? []), String(r._id)]);
  const missing = emails.filter((e) => {
    const ids = storedByEmail.get(e) ?? [];
    return ids.length === 0 || ![...idsByEmail.get(e)!].every((id) => ids.includes(id));
  });
  const duplicated = emails.filter((e) => (storedByEmail.get(e)?.length ?? 0) > 1);
  const split = emails.filter((e) => idsByEmail.get(e)!.size > 1);

  const aliasTargets = Object.keys(await es.indices.getAlias({ name: opts.alias }).catch(() => ({})));
  const indexedDocuments = aliasTargets.length === 1 ? (await es.count({ index: aliasTargets[0] })).count : -1;
  const homesToIndex = await c.homes.countDocuments({ published: true, deleted_at: null });
  const health = aliasTargets.length === 1 ? (await es.cluster.health({ index: aliasTargets[0] })).status : 'none';
  const all = (await es.cat.indices({ index: `${opts.prefix}-*`, format: 'json', h: 'index' })) as Array<{ index?: string }>;
  const leftovers = all.map((r) => r.index ?? '').filter((i) => i && !aliasTargets.includes(i));
  return {
    acknowledged: opts.acknowledged.length,
    emails: emails.length,
    missing,
    duplicated,
    split,
    aliasTargets,
    indexedDocuments,
    homesToIndex,
    health,
    leftovers,
    ok:
      missing.length === 0 &&
      duplicated.length === 0 &&
      split.length === 0 &&
      aliasTargets.length === 1 &&
      indexedDocuments === homesToIndex &&
      health === 'green' &&
      leftovers.length === 0,
  };
}
