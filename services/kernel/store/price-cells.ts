/**
 * Where the homes index keeps the price bounds of fixed stays (docs/search-index.md, "A flat index"):
 * one integer per cell of (move-in months, band of stay lengths), in the objects `price_lo` (a lower
 * bound of the display price of any fixed stay of the cell) and `price_hi` (an upper bound). A
 * search reads the one cell of its stay: a doc-value number to sort and compare, where a nested
 * band had to be found among every band of the home. The indexer writes them (indexer/price-bands.ts)
 * and the search reads them (search/shared/indexed-price.ts), both through this file.
 */
import type { IsoDate } from '../inventory/records';

/**
 * The first night of each band of stay lengths. Cut at 30 nights (the display unit turns from a
 * night to a month there) and where the spread cleaning fee moves the price most; every home's own
 * bands (its length-of-stay tiers) are cut at these too, so each lies inside one cell.
 */
export const CELL_NIGHT_CUTS = [1, 2, 3, 4, 5, 7, 10, 14, 21, 30, 60, 90, 180, 365] as const;

/** The first night of the band of stay lengths `nights` falls in. */
export function nightCut(nights: number): number {
  let cut: number = CELL_NIGHT_CUTS[0];
  for (const c of CELL_NIGHT_CUTS) if (c <= nights) cut = c;
  return cut;
}

/**
 * Months of move-in dates per cell: two (January-February, March-April, ...). Each cell is two
 * doc-value numbers per home, and they were 40 % of what Elasticsearch spent on a rebuild with one
 * month per cell (docs/search-index.md, "A flat index").
 */
export const CELL_MONTHS = 2;

/** The cell key of a move-in month (`YYYY-MM`) and a band of stay lengths (its first night): `202611_14` for November-December 2026. */
export function cellKeyOf(month: string, cut: number): string {
  const m = Number(month.slice(5, 7));
  const first = m - ((m - 1) % CELL_MONTHS);
  return `${month.slice(0, 4)}${String(first).padStart(2, '0')}_${cut}`;
}

/** The cell a fixed stay reads its bounds from. */
export function priceCellOf(startDate: IsoDate, nights: number): { lo: string; hi: string } {
  const key = cellKeyOf(startDate.slice(0, 7), nightCut(nights));
  return { lo: `price_lo.${key}`, hi: `price_hi.${key}` };
}
