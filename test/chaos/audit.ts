/**
 * What must hold after a fault run: every acknowledged booking intent is stored exactly once, under
 * the id the service gave; no email has two records; the alias points at one complete index (as
 * many documents as the full run that built it wrote); no other index of ours is left.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Collections } from '../../services/kernel/store/collections';
import { readFreshness } from '../../services/kernel/store/index-freshness';
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
  fullRunDocuments: number | null;
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
  const full = (await readFreshness(c.indexerState)).last_full_run;
  const fullRunDocuments = full && full.alias_target === aliasTargets[0] ? full.documents : null;
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
    fullRunDocuments,
    leftovers,
    ok:
      missing.length === 0 &&
      duplicated.length === 0 &&
      split.length === 0 &&
      aliasTargets.length === 1 &&
      fullRunDocuments !== null &&
      indexedDocuments === fullRunDocuments &&
      leftovers.length === 0,
  };
}
