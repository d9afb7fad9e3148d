/** Reads one home with its building and market from MongoDB (the apartment read, quote, compare). */
import type { Deps } from '../deps';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../kernel/inventory/records';
import { notFound } from '../kernel/errors';
import { withBuildingRules } from '../kernel/engine/building-rules';

export interface HomeContext {
  home: HomeRecord;
  property: PropertyRecord;
  market: MarketRecord;
}

/** An unpublished or deleted home is unknown to the public API, exactly like a missing one. */
export async function findHome(deps: Deps, slug: string): Promise<HomeContext | null> {
  const home = await deps.mongo.homes.findOne({ slug });
  if (!home || !home.published || home.deleted_at !== null) return null;
  const [property, market] = await Promise.all([
    deps.mongo.properties.findOne({ _id: home.property_id }),
    deps.markets.bySlug(home.market_slug),
  ]);
  if (!property || !market) return null;
  return { home: withBuildingRules(home, property), property, market };
}

export async function loadHome(deps: Deps, slug: string): Promise<HomeContext> {
  const found = await findHome(deps, slug);
  if (!found) throw notFound('home_not_found', `No apartment with slug "${slug}". Search to find apartment slugs.`);
  return found;
}
