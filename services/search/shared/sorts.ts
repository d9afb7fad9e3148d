/** The sort_by values of search_apartments_tool and the availability overview (spec: search_apartments_tool). */
export const SEARCH_SORTS = ['price_asc', 'price_desc', 'availability', 'newest', 'rating_desc'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
