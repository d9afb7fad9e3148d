/**
 * The apartment search (search_apartments_tool and the map): one page of the apartments that match
 * exactly, in the search's order, with the exact total (spec: "search_apartments_tool" rules 2 and 5).
 * The matching and pricing are shared with the building search (../shared/exact-search.ts).
 */
import type { IsoDate } from '../../kernel/inventory/records';
import { ExactSearch, startsInPast, type SearchStats } from '../shared/exact-search';
import type { ResultPrice } from '../shared/result-price';
import type { ResultDocument } from '../shared/search-body';
import type { SearchParams } from '../shared/search-params';
import type { SearchTransport } from '../shared/search-transport';

export interface FoundHome {
  doc: ResultDocument;
  priced: ResultPrice;
}

export interface SearchFound {
  homes: FoundHome[];
  total: number;
  stats: SearchStats;
}

/** The matching homes `[offset, offset + size)` in the search's order, with the exact total. */
export async function searchHomes(t: SearchTransport, p: SearchParams, offset: number, size: number, today: IsoDate): Promise<SearchFound> {
  const search = new ExactSearch(t, p);
  if (startsInPast(p, today)) return { homes: [], total: 0, stats: search.stats };
  const found = await search.homes(offset, size);
  return { ...found, stats: search.stats };
}
