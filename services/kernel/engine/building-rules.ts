/**
 * Rules a building imposes on its homes. A home allows a pet only when its building does too,
 * so a building that stops allowing dogs takes effect on every unit without rewriting them.
 */
import type { HomeRecord, PropertyRecord } from '../inventory/records';

export function withBuildingRules(home: HomeRecord, property: PropertyRecord): HomeRecord {
  const cats = home.cats_allowed && property.allows_cats;
  const dogs = home.dogs_allowed && property.allows_dogs;
  return cats === home.cats_allowed && dogs === home.dogs_allowed ? home : { ...home, cats_allowed: cats, dogs_allowed: dogs };
}
