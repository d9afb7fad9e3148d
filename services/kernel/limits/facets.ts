/** Bounds of a search's facet counts (docs/contract.md, search_apartments_tool rule 11). */

/** Bars of the price histogram a filter panel can show: the most price buckets a facet has. */
export const MAX_PRICE_BUCKETS = 12;

/**
 * Most homes the price facet of a fixed stay prices exactly (those whose price bounds straddle a
 * bucket edge): past it, the edges most straddled are dropped, so the buckets are fewer and wider,
 * never inexact, and a facet never makes a search too broad (~10 ms of engine work at 1,000).
 */
export const FACET_MAX_PRICED = 1_000;
