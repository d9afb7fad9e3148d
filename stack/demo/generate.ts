/**
 * The deterministic demo inventory: a dozen real US metros, hundreds of buildings and a few
 * thousand homes (or 100,000 for the benchmark), 18 months of calendars. A pure function of
 * (seed, homes, today): no clock, no Math.random, so equal inputs give byte-identical records.
 */
import type { HomeRecord, IsoDate, MarketRecord, PropertyRecord } from '../../services/kernel/inventory/records';
import { parseIsoDate } from '../../services/kernel/engine/dates';
import { generateHomes } from './homes';
import { buildMarkets } from './markets';
import { planBuildings } from './properties';

export interface GenerateOptions {
  seed: number;
  /** Number of homes; buildings follow at about one per ten homes. */
  homes: number;
  /** The day the calendars, offers and timestamps are relative to. */
  today: IsoDate;
}

export interface DemoInventory {
  markets: MarketRecord[];
  properties: PropertyRecord[];
  /** Lazy and re-iterable: each pass regenerates the same homes, one at a time, in `_id` order. */
  homes: Iterable<HomeRecord>;
}

export function generateInventory(opts: GenerateOptions): DemoInventory {
  const { seed, homes, today } = opts;
  if (!Number.isSafeInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  if (!Number.isSafeInteger(homes) || homes < 0) throw new Error(`homes must be a non-negative integer, got ${homes}`);
  if (parseIsoDate(today) === null) throw new Error(`today must be a YYYY-MM-DD date, got ${today}`);
  const plans = planBuildings(seed, homes, today);
  return {
    markets: buildMarkets(today),
    properties: plans.map((p) => p.property),
    homes: { [Symbol.iterator]: () => generateHomes(seed, today, plans) },
  };
}
