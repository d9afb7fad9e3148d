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

/**
 * An unpublished or deleted home is unknown to the public API, exactly like a missing one. The index
 * generation is read beside the home: the building then comes from the copy's records when that
 * generation allows it (buildings/generation-buildings.ts), so a read is one round trip to MongoDB.
 */
export async function findHome(deps: Deps, slug: string): Promise<HomeContext | null> {
  const [home, generation] = await Promise.all([deps.mongo.homes.findOne({ slug }), deps.config.readCache ? deps.generation.read() : null]);
  if (!home || !home.published || home.deleted_at !== null) return null;
  const [property, market] = await Promise.all([deps.homeBuildings.byId(home.property_id, generation), deps.markets.bySlugAt(home.market_slug, generation)]);
  if (!property || !market) return null;
  return { home: withBuildingRules(home, property), property, market };
}

export async function loadHome(deps: Deps, slug: string): Promise<HomeContext> {
  const found = await findHome(deps, slug);
  if (!found) throw notFound('home_not_found', `No apartment with slug "${slug}". Search to find apartment slugs.`);
  return found;
}

/** Several homes by slug at once (unique slug index, `$in`), with their buildings; unknown ones are absent. */
export async function findHomes(deps: Deps, slugs: readonly string[]): Promise<Map<string, HomeContext>> {
  const homes = (await deps.mongo.homes.find({ slug: { $in: [...new Set(slugs)] } }).toArray()).filter((h) => h.published && h.deleted_at === null);
  const propertyIds = [...new Set(homes.map((h) => h.property_id))];
  const properties = propertyIds.length
    ? new Map((await deps.mongo.properties.find({ _id: { $in: propertyIds } }).toArray()).map((p) => [p._id, p]))
    : new Map<string, PropertyRecord>();
  const found = new Map<string, HomeContext>();
  for (const home of homes) {
    const property = properties.get(home.property_id);
    const market = await deps.markets.bySlug(home.market_slug);
    if (property && market) found.set(home.slug, { home: withBuildingRules(home, property), property, market });
  }
  return found;
}
