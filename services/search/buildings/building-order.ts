/**
 * Buildings in the order of their cheapest unit, from units in exact price order (docs/contract.md,
 * search_properties_tool: `price_asc`/`price_desc`; rule 9, `from_price` is the cheapest matching unit's price).
 *
 * Ascending, a building's first unit in the stream is its cheapest: buildings come in the order
 * they first appear. Descending, its cheapest unit is its last: a building is placed when the
 * stream has shown all of its matching units, and buildings complete in descending order of
 * their cheapest unit. Only the placed buildings are returned, so a prefix of the stream gives a
 * prefix of the building order.
 */
export function buildingsInPriceOrder(unitBuildings: readonly string[], order: 'asc' | 'desc', unitsPerBuilding: ReadonlyMap<string, number>): string[] {
  const placed: string[] = [];
  const seen = new Map<string, number>();
  for (const building of unitBuildings) {
    const n = (seen.get(building) ?? 0) + 1;
    seen.set(building, n);
    if (order === 'asc' ? n === 1 : n === unitsPerBuilding.get(building)) placed.push(building);
  }
  return placed;
}
