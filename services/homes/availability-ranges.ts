/**
 * The raw occupancy ranges of some homes, computed from their canonical records with their
 * buildings' rules (the availability overview's `include_ranges`): one `_id $in` read of the homes
 * and one of their buildings, each of at most a page.
 */
import type { Deps } from '../deps';
import { computeAvailability } from '../kernel/engine/availability';
import { withBuildingRules } from '../kernel/engine/building-rules';
import type { RangeSegment } from '../kernel/engine/types';
import type { IsoDate } from '../kernel/inventory/records';

/** Home id → its ranges from `today`; a home missing from the store is absent. */
export async function availabilityRangesOf(deps: Pick<Deps, 'mongo'>, ids: readonly string[], today: IsoDate): Promise<Map<string, RangeSegment[]>> {
  if (ids.length === 0) return new Map();
  const homes = await deps.mongo.homes.find({ _id: { $in: [...ids] } }).toArray();
  const properties = new Map(
    (await deps.mongo.properties.find({ _id: { $in: [...new Set(homes.map((h) => h.property_id))] } }).toArray()).map((p) => [p._id, p]),
  );
  return new Map(
    homes.map((h) => {
      const p = properties.get(h.property_id);
      return [h._id, computeAvailability(p ? withBuildingRules(h, p) : h, today).ranges];
    }),
  );
}
