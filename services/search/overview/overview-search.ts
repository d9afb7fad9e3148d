/** The availability overview's search, sent: one page of the matching homes' indexed overview fields, with the exact total. */
import type { Deps } from '../../deps';
import type { HomeDocument } from '../../kernel/store/home-document';
import { homesTransport, totalOf } from '../shared/search-transport';
import { buildOverviewBody, type OverviewQuery } from './overview-query';

export interface OverviewPage {
  total: number;
  /** The page's homes, in order, with the fields of OVERVIEW_SOURCE. */
  homes: HomeDocument[];
}

/** The page `q` asks for, in the shard of its market; `signal` cancels the search still out when the request ends. */
export async function searchOverview(
  deps: Pick<Deps, 'es' | 'config' | 'esNodes' | 'routingKeys' | 'marketExtents'>,
  q: OverviewQuery,
  signal?: AbortSignal,
): Promise<OverviewPage> {
  const res = await homesTransport(deps, { market: q.location.market.slug, signal }).search(buildOverviewBody(q));
  // filter_path leaves hits.hits out of an empty page.
  return { total: totalOf(res), homes: (res.hits.hits ?? []).flatMap((h) => (h._source ? [h._source] : [])) };
}
