/**
 * The apartment search (search_apartments_tool and the map): one page of the apartments that match
 * exactly, in the search's order, with the exact total (docs/contract.md, search_apartments_tool rules 2 and 5).
 * The matching and pricing are shared with the building search (../shared/exact-search.ts).
 */
import type { IsoDate } from '../../kernel/inventory/records';
import { ExactSearch, startsInPast, type PricedHome, type SearchStats } from '../shared/exact-search';
import type { ResultPrice } from '../shared/result-price';
import type { ResultDocument, SearchAggregations } from '../shared/search-body';
import type { PriceUnit, SearchParams } from '../shared/search-params';
import { countedOnOwnQuery, facetAggs, facetCountBody, facetScope } from './facet-aggs';
import { emptyFacets, readFacets, type Facets } from './facets';
import type { SearchTransport } from '../shared/search-transport';
import type { MatchedField } from '../shared/matched-texts';

export interface FoundHome {
  doc: ResultDocument;
  priced: ResultPrice;
}

export interface SearchFound {
  homes: FoundHome[];
  total: number;
  stats: SearchStats;
  /** What the caller's aggregations answered, over the same matching homes. */
  aggregations?: Record<string, unknown>;
  /** The facet counts, when asked for (docs/contract.md, "Facets"). */
  facets?: Facets;
  /** A home's exact price from the same search's price book, or null once the search may price no more. */
  priceIfAffordable(home: PricedHome): number | null;
  /** With q: each home of the page's matched fields, by home id (../text/matched-texts.ts). */
  matched?: Map<string, MatchedField[]>;
}

/**
 * The matching homes `[offset, offset + size)` in the search's order, with the exact total (and `aggs`
 * over all of them); with `facets` (the unit of the search's price limits), the facet counts too.
 */
export async function searchHomes(
  t: SearchTransport,
  p: SearchParams,
  offset: number,
  size: number,
  today: IsoDate,
  aggs?: SearchAggregations,
  facets?: PriceUnit,
): Promise<SearchFound> {
  const search = new ExactSearch(t, p);
  const priceIfAffordable = (home: PricedHome) => search.book.amountIfAffordable(home);
  if (startsInPast(p, today)) return { homes: [], total: 0, stats: search.stats, priceIfAffordable, ...(facets ? { facets: emptyFacets(facets) } : {}) };
  if (facets === undefined) return { ...(await search.homes(offset, size, undefined, aggs)), stats: search.stats, priceIfAffordable };
  // The facets' scope holds the search's straddlers that pass, as the page does.
  const scope = facetScope(p, await search.passingStraddlers());
  if (countedOnOwnQuery(scope)) {
    const found = await search.homes(offset, size, undefined, { ...aggs, ...facetAggs(p, scope) });
    return { ...found, facets: await readFacets(search, found.aggregations, facets), stats: search.stats, priceIfAffordable };
  }
  // Otherwise on a query of their own, sent at once beside the search's.
  const [found, counted] = await Promise.all([search.homes(offset, size, undefined, aggs), search.send(facetCountBody(p, scope))]);
  return {
    ...found,
    facets: await readFacets(search, counted.aggregations as Record<string, unknown> | undefined, facets),
    stats: search.stats,
    priceIfAffordable,
  };
}
