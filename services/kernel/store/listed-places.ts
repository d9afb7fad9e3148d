/**
 * Which markets and display cities search can return a home in (docs/contract.md, list_markets_tool
 * rule 1), as the service keeps it once per index generation (search/markets/market-searches.ts): the
 * shape and what keeping it holds.
 */

export interface ListedPlaces {
  /** market slug → city slugs with at least one searchable home, and the market's home count. */
  markets: Map<string, { homes: number; cities: Map<string, number> }>;
}

/** What the kept listing may hold: the places of every market, with room to spare (an answer over it is computed every time). */
export const LISTED_PLACES_BYTES = 4 * 1024 * 1024;

/** The bytes a kept listing holds, as the kept answers' bound counts them: about a hundred a place. */
export function listedPlacesBytes(listed: ListedPlaces): number {
  let bytes = 64;
  for (const [market, { cities }] of listed.markets) {
    bytes += 100 + 2 * market.length;
    for (const city of cities.keys()) bytes += 100 + 2 * city.length;
  }
  return bytes;
}
