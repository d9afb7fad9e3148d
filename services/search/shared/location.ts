/**
 * Location arguments shared by the search tools and the availability overview (docs/contract.md,
 * "Location"): `market` (a display-city or market slug) and `scope` with exactly one of
 * `display_city` or `market`; precedence scope.display_city, then scope.market, then market.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { Deps } from '../../deps';
import { badRequest, notFound } from '../../kernel/errors';
import type { MarketRecord } from '../../kernel/inventory/records';

const placeSlug = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const locationProperties = {
  market: {
    ...placeSlug,
    description:
      'A display-city slug or a market slug, from list_markets_tool. A slug that names a market covers the whole market ' +
      '(even when its main city has the same slug): use scope.display_city for that city alone.',
  },
  scope: {
    type: 'object',
    description:
      'Alternative to market: set exactly one of display_city (a city slug: that city alone) or market (a market or city ' + 'slug, as the market argument).',
    properties: {
      display_city: { ...placeSlug, description: 'A display-city slug: that city alone, even when a market has the same slug.' },
      market: { ...placeSlug, description: 'A market or display-city slug, as the market argument.' },
    },
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
  },
} as const;

export type LocationArgs = FromSchema<{ type: 'object'; properties: typeof locationProperties; additionalProperties: false }>;

export interface ResolvedLocation {
  market: MarketRecord;
  /** The display city searched, when the slug named one. */
  city: MarketRecord['cities'][number] | null;
}

/** The place a search covers; a 400 when none is named, a 404 when the slug is unknown. */
export async function resolveLocation(deps: Deps, args: LocationArgs): Promise<ResolvedLocation> {
  const cityOnly = args.scope?.display_city;
  // Slugs are lower-case: "Boston " is read as "boston" rather than refused.
  const slug = (cityOnly ?? args.scope?.market ?? args.market)?.trim().toLowerCase();
  if (slug === undefined) {
    throw badRequest(
      'invalid_parameters',
      'A location is required: pass market (a display-city or market slug from list_markets_tool), or scope.display_city / scope.market.',
    );
  }
  // A slug naming a market means the whole market (most markets share their slug with their main
  // city: "boston" the metro, "boston" the city); scope.display_city is how to ask for the city.
  if (cityOnly === undefined) {
    const whole = await deps.markets.bySlug(slug);
    if (whole) return { market: whole, city: null };
  }
  const market = await deps.markets.containing(slug);
  const city = market?.cities.find((c) => c.slug === slug) ?? null;
  if (!market || (cityOnly !== undefined && !city)) {
    throw notFound(
      'market_not_found',
      `No ${cityOnly !== undefined ? 'display city' : 'market or display city'} with slug "${slug}". list_markets_tool lists the slugs.`,
    );
  }
  return { market, city };
}
