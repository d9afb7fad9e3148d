/** The searchable documents of a test world's index, and its market with the most of them. */
import type { Fixture } from './fixture';
import type { HomeDocument } from '../../services/kernel/store/home-document';

export async function indexedHomes(fx: Fixture): Promise<{ docs: HomeDocument[]; marketSlug: string; citySlug: string }> {
  const res = await fx.es.search<HomeDocument>({ index: fx.config.homesAlias, size: 1000, query: { term: { bookable: true } } });
  const docs = res.hits.hits.map((h) => h._source!);
  const counts = new Map<string, number>();
  for (const d of docs) counts.set(d.market_slug, (counts.get(d.market_slug) ?? 0) + 1);
  const marketSlug = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return { docs, marketSlug, citySlug: docs.find((d) => d.market_slug === marketSlug)!.city_slug };
}
