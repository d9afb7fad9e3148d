/**
 * The index's max_result_window (mappings/homes.json) against the page depths of
 * services/kernel/limits/pages.ts: every page a tool may ask for is read with `from` and `size`, and
 * Elasticsearch refuses one reaching past the window (a 500 where the tool promised a page).
 */
import mapping from '../../../mappings/homes.json';
import { APARTMENT_PAGE_DEPTH, BUILDING_WINDOW, MAP_PINS, OVERVIEW_PAGE, SEARCH_MAX_PAGE, SEARCH_PAGE } from '../../../services/kernel/limits/pages';

const window = mapping.settings.max_result_window;

describe("the index's result window", () => {
  it('holds the deepest apartment a search page reaches: the last page at the largest size', () => {
    expect(SEARCH_MAX_PAGE * SEARCH_PAGE.max).toBeLessThanOrEqual(APARTMENT_PAGE_DEPTH);
    expect(APARTMENT_PAGE_DEPTH).toBeLessThanOrEqual(window);
  });

  it('holds the deepest apartment an overview page reaches, at any page size', () => {
    // page × per_page is refused past APARTMENT_PAGE_DEPTH, and a page is at most OVERVIEW_PAGE.max long.
    expect(OVERVIEW_PAGE.max).toBeLessThanOrEqual(APARTMENT_PAGE_DEPTH);
    expect(APARTMENT_PAGE_DEPTH).toBeLessThanOrEqual(window);
  });

  it('holds the buildings a building search pages through and the pins of a map', () => {
    expect(BUILDING_WINDOW).toBeLessThanOrEqual(window);
    expect(MAP_PINS).toBeLessThanOrEqual(window);
  });

  it('stays within a tenth above the apartment page depth, so neither changes without the other', () => {
    expect(window - APARTMENT_PAGE_DEPTH).toBeLessThanOrEqual(APARTMENT_PAGE_DEPTH / 10);
  });
});
