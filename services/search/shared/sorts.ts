/** The orders of the apartment search and the availability overview: their sort_by values and the clauses ES sorts by. */
import type { estypes } from '@elastic/elasticsearch';

/** The sort_by values of search_apartments_tool and the availability overview (docs/contract.md, "search_apartments_tool"). */
export const SEARCH_SORTS = ['price_asc', 'price_desc', 'availability', 'newest', 'rating_desc'] as const;
/** The apartment searches' orders: those, and `relevance` (a word search's q: the best match first). */
export const APARTMENT_SORTS = [...SEARCH_SORTS, 'relevance'] as const;
export type SearchSort = (typeof APARTMENT_SORTS)[number];

/** Sorts end on the unique home id, so pages are stable and never overlap; `byPrice` sorts by the price the caller reads. */
export function sortClauses(sort: SearchSort, byPrice: (order: 'asc' | 'desc') => estypes.SortCombinations): estypes.SortCombinations[] {
  const tie: estypes.SortCombinations = { home_id: 'asc' };
  switch (sort) {
    case 'price_asc':
      return [byPrice('asc'), tie];
    case 'price_desc':
      return [byPrice('desc'), tie];
    case 'availability':
      return [{ earliest_available_date: { order: 'asc', missing: '_last' } }, tie];
    case 'newest':
      return [{ created_at: 'desc' }, tie];
    case 'relevance':
      // The score of q's words (./text-clause.ts), ties in the default order (the price ES can sort by).
      return [{ _score: { order: 'desc' } }, byPrice('asc'), tie];
    case 'rating_desc':
      // Unrated last (docs/contract.md, "search_apartments_tool": rating_desc).
      return [{ rating_average: { order: 'desc', missing: '_last' } }, { rating_count: 'desc' }, tie];
  }
}
