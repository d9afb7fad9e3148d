/**
 * Page sizes and depths of the listing tools. Every page is read from Elasticsearch with `from` and
 * `size`, so the deepest result any of them reaches must lie inside the index's max_result_window
 * (mappings/homes.json; test/unit/search/result-window.test.ts holds them together).
 */

/** search_apartments_tool: apartments per page. */
export const SEARCH_PAGE = { default: 25, max: 40 } as const;

/** The deepest apartment a page reaches: of the apartment search, and of the availability overview (page × per_page). */
export const APARTMENT_PAGE_DEPTH = 100_000;

/** The apartment search's last page: APARTMENT_PAGE_DEPTH apartments at the largest page size. */
export const SEARCH_MAX_PAGE = Math.floor(APARTMENT_PAGE_DEPTH / SEARCH_PAGE.max);

/** GET /api/public/suggest: places per answer. */
export const SUGGEST_LIMIT = { default: 8, max: 20 } as const;

/** availability_overview_tool: apartments per page. */
export const OVERVIEW_PAGE = { default: 50, max: 250 } as const;

/** search_properties_tool: buildings per page. */
export const BUILDING_PAGE = { default: 10, max: 1_000 } as const;

/**
 * search_properties_tool: the bytes (JSON) of one page's building cards. A page of per_page buildings
 * keeps its first cards that fit and names how many it left out: a country of 1,000 cards is ~2 MB,
 * and the tool server sends the page twice (structured and as text) to hosts that cap a result near 1 MiB.
 */
export const PROPERTIES_MAX_BYTES = 384 * 1024;

/** Buildings a search pages through (far past any market's): a page reaching past it is refused unless it is past the last. */
export const BUILDING_WINDOW = 10_000;

/** search_apartments_on_map: pins per call, the first ones in the search order. */
export const MAP_PINS = 250;

/** compare_apartments_tool: apartments compared in one call. */
export const COMPARED_APARTMENTS = { min: 2, max: 4 } as const;
