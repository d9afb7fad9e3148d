/**
 * The place box's completions (GET /api/public/suggest): the markets, display cities, neighbourhoods
 * and buildings whose names start with what is typed, or nearly (typos by its length, as word search
 * allows them), best first. One request of four completion suggesters over the homes index, one per
 * kind of place (the `suggest` field's `type` context, written by the indexer for bookable homes only:
 * ../../kernel/text/place-suggestions.ts), each place once.
 */
import type { estypes } from '@elastic/elasticsearch';
import { PLACE_TYPES, foldedTyping, type PlaceType } from '../../kernel/text/place-suggestions';
import { typoBudget } from '../../kernel/text/query-plan';
import { homesTransport, type HomesTransportDeps } from '../shared/search-transport';

export interface PlaceSuggestion {
  type: PlaceType;
  slug: string;
  label: string;
  market: string;
  /** The search arguments that search this place. */
  search: { market: string; neighborhood?: string; building?: string };
}

interface SuggestedHome {
  market_slug: string;
  city_slug: string;
  neighborhood_slug: string | null;
  property_slug: string;
  match_text?: Array<{ field: string; text: string }>;
}

const LABEL_FIELD: Record<PlaceType, string> = { market: 'market', city: 'city', neighborhood: 'neighborhood', building: 'building_name' };

/** The request of a typed prefix: a suggester per kind, each asking for enough options to leave `limit` places once the same place's other names are merged. */
export function suggestBody(typed: string, limit: number): estypes.SearchRequest {
  const prefix = foldedTyping(typed);
  const fuzziness = typoBudget(typed.replace(/\s+/g, ''));
  const suggest: Record<string, estypes.SearchSuggester> = {};
  for (const type of PLACE_TYPES) {
    suggest[type] = {
      prefix,
      completion: {
        field: 'suggest',
        size: limit * 2,
        skip_duplicates: true,
        contexts: { type: [type] },
        ...(fuzziness > 0 ? { fuzzy: { fuzziness, prefix_length: 1, transpositions: true } } : {}),
      },
    } as estypes.SearchSuggester;
  }
  return { size: 0, track_total_hits: false, _source: ['market_slug', 'city_slug', 'neighborhood_slug', 'property_slug', 'match_text'], suggest };
}

function placeOf(type: PlaceType, home: SuggestedHome): PlaceSuggestion | null {
  const label = home.match_text?.find((t) => t.field === LABEL_FIELD[type])?.text;
  if (label === undefined) return null;
  switch (type) {
    case 'market':
      return { type, slug: home.market_slug, label, market: home.market_slug, search: { market: home.market_slug } };
    case 'city':
      return { type, slug: home.city_slug, label, market: home.market_slug, search: { market: home.city_slug } };
    case 'neighborhood':
      return home.neighborhood_slug === null
        ? null
        : { type, slug: home.neighborhood_slug, label, market: home.market_slug, search: { market: home.market_slug, neighborhood: home.neighborhood_slug } };
    case 'building':
      return { type, slug: home.property_slug, label, market: home.market_slug, search: { market: home.market_slug, building: home.property_slug } };
  }
}

/** The answer's places: by score (a market's weight above a city's…, an exact prefix above a typo), each place once. */
export function readSuggestions(res: { suggest?: Record<string, unknown> }, limit: number): PlaceSuggestion[] {
  const scored: Array<{ score: number; rank: number; place: PlaceSuggestion }> = [];
  for (const [rank, type] of PLACE_TYPES.entries()) {
    const entries = (res.suggest?.[type] ?? []) as Array<{ options?: Array<{ _score?: number; _source?: SuggestedHome }> }>;
    for (const option of entries.flatMap((e) => e.options ?? [])) {
      const place = option._source ? placeOf(type, option._source) : null;
      if (place) scored.push({ score: option._score ?? 0, rank, place });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.rank - b.rank || a.place.label.localeCompare(b.place.label));
  const seen = new Set<string>();
  const out: PlaceSuggestion[] = [];
  for (const { place } of scored) {
    const key = `${place.type}:${place.market}:${place.slug}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(place);
    if (out.length === limit) break;
  }
  return out;
}

/** The places completing `typed`, read from every shard of the homes alias. */
export async function suggestPlaces(deps: HomesTransportDeps, typed: string, limit: number, signal?: AbortSignal): Promise<PlaceSuggestion[]> {
  const t = homesTransport(deps, { signal });
  return readSuggestions((await t.search(suggestBody(typed, limit))) as { suggest?: Record<string, unknown> }, limit);
}
