/**
 * What the place box completes (GET /api/public/suggest): every market, display city, neighbourhood
 * and building with a searchable home, one document each in the places index (mappings/places.json),
 * built here from what the homes index holds. A name is written folded (lowercase, accents removed)
 * and from each of its words on, so "back b" and "bay" both reach "Back Bay"; the service folds what
 * is typed the same way. The weight ranks the kinds when a prefix reaches several: a market before a
 * city, a city before a neighbourhood, a neighbourhood before a building.
 */
import { wordsOf } from './words';

export const PLACE_TYPES = ['market', 'city', 'neighborhood', 'building'] as const;
export type PlaceType = (typeof PLACE_TYPES)[number];

const WEIGHTS: Record<PlaceType, number> = { market: 40, city: 30, neighborhood: 20, building: 10 };

/** A name folded and its words joined by single spaces ("Café  Row" -> "cafe row"); what is typed is folded alike. */
export function foldedName(name: string): string {
  return wordsOf(name)
    .map((w) => w.word)
    .join(' ');
}

/** Typed text as the completion field compares it: folded, its last character kept when it is a space ("back " still ends a word). */
export function foldedTyping(typed: string): string {
  const folded = foldedName(typed);
  return /\s$/.test(typed) && folded !== '' ? `${folded} ` : folded;
}

/**
 * A place's completion entries at most: one from each of its name's first words (a place can be completed
 * from any of them), so a prefix can meet the same place this many times among the suggester's entries.
 */
export const ENTRIES_PER_PLACE = 4;

/** The completion inputs of one name: the folded name from each of its first four words on. */
export function completionInputs(name: string): string[] {
  const words = foldedName(name)
    .split(' ')
    .filter((w) => w !== '');
  return [...new Set(words.slice(0, ENTRIES_PER_PLACE).map((_, i) => words.slice(i).join(' ')))].filter((i) => i !== '');
}

/**
 * The search arguments of a place: a market as `market`, with a neighbourhood or building of it; a
 * display city as `scope.display_city`, which is that city alone even when a market shares its slug
 * (`market: "boston"` is the whole Boston market, `scope: {display_city: "boston"}` the city).
 */
export type PlaceSearch = { market: string; neighborhood?: string; building?: string } | { scope: { display_city: string } };

/** A place as GET /suggest answers it. */
export interface Place {
  type: PlaceType;
  slug: string;
  label: string;
  market: string;
  search: PlaceSearch;
}

/** What GET /suggest answers: the places, best first. */
export interface PlacesAnswer {
  suggestions: Place[];
}

/** A place's document in the places index: the place, and its completion entry. */
export interface PlaceDocument extends Place {
  suggest: { input: string[]; weight: number };
}

/** One distinct combination of a searchable home's places, as the homes index holds them. */
export interface HomePlaces {
  market_slug: string;
  city_slug: string;
  city_name: string;
  neighborhood_slug: string | null;
  property_slug: string;
  property_name: string;
}

/** The names the homes index does not hold: each market's, and its neighbourhoods' by slug. */
export interface MarketNames {
  slug: string;
  name: string;
  neighborhoods: ReadonlyArray<{ slug: string; name: string }>;
}

/** The document id of a place: its kind, its market and its slug. */
export const placeId = (p: Pick<Place, 'type' | 'market' | 'slug'>): string => `${p.type}:${p.market}:${p.slug}`;

/**
 * Every place of these homes, once each, in id order: the market, display city, neighbourhood and
 * building of each combination. A place whose name has no letter or digit has nothing to complete and
 * is left out; so is a home's market missing from `markets` (the indexer refuses such a home).
 */
export function placeDocuments(homes: Iterable<HomePlaces>, markets: Iterable<MarketNames>): PlaceDocument[] {
  const byMarket = new Map<string, MarketNames>();
  for (const m of markets) byMarket.set(m.slug, m);
  const places = new Map<string, PlaceDocument>();
  const add = (place: Place): void => {
    const id = placeId(place);
    if (places.has(id)) return;
    const input = completionInputs(place.label);
    if (input.length > 0) places.set(id, { ...place, suggest: { input, weight: WEIGHTS[place.type] } });
  };
  for (const h of homes) {
    const market = byMarket.get(h.market_slug);
    if (!market) continue;
    add({ type: 'market', slug: market.slug, label: market.name, market: market.slug, search: { market: market.slug } });
    add({ type: 'city', slug: h.city_slug, label: h.city_name, market: market.slug, search: { scope: { display_city: h.city_slug } } });
    const neighborhood = h.neighborhood_slug === null ? undefined : market.neighborhoods.find((n) => n.slug === h.neighborhood_slug);
    if (neighborhood) {
      add({
        type: 'neighborhood',
        slug: neighborhood.slug,
        label: neighborhood.name,
        market: market.slug,
        search: { market: market.slug, neighborhood: neighborhood.slug },
      });
    }
    add({ type: 'building', slug: h.property_slug, label: h.property_name, market: market.slug, search: { market: market.slug, building: h.property_slug } });
  }
  return [...places.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, doc]) => doc);
}
