/**
 * The place box's completions (GET /api/public/suggest): the markets, display cities, neighbourhoods
 * and buildings whose names start with what is typed, or nearly (typos by its length, as word search
 * allows them), best first. One completion suggester over the places index (one small document per
 * place with a searchable home, written by the indexer: ../../kernel/text/place-suggestions.ts), so
 * each option is a place, read whole from its document.
 */
import type { estypes } from '@elastic/elasticsearch';
import { completionInputs, ENTRIES_PER_PLACE, PLACE_TYPES, foldedTyping, placeId, type Place, type PlacesAnswer } from '../../kernel/text/place-suggestions';
import { typoBudget, type QueryTerm } from '../../kernel/text/query-plan';
import { withinFuzziness } from '../../kernel/text/matched';
import { SUGGEST_LIMIT } from '../../kernel/limits/pages';
import { esTransport } from '../shared/search-transport';
import type { Deps } from '../../deps';

export type PlaceSuggestion = Place;

const SUGGESTER = 'places';
const PLACE_FIELDS = ['type', 'slug', 'label', 'market', 'search'];

/**
 * Entries asked of the suggester for a limit: its places, each up to ENTRIES_PER_PLACE times, and never
 * fewer than the default limit's. Elasticsearch breaks ties of score its own way; asking every limit up
 * to the default for the same entries makes a smaller one's places the first of the default's answer.
 * (Asking every limit for the largest one's 80 entries cost Elasticsearch a third of its answers a
 * second, for the rare tie at the edge of a larger limit.)
 */
export const entriesAsked = (limit: number): number => Math.max(limit, SUGGEST_LIMIT.default) * ENTRIES_PER_PLACE;

/** The request of a typed prefix: the places whose names (from any of their first four words) start with it, or nearly. */
export function suggestBody(typed: string, limit: number): estypes.SearchRequest {
  const prefix = foldedTyping(typed);
  const fuzziness = typoBudget(prefix.replace(/\s+/g, ''));
  return {
    size: 0,
    track_total_hits: false,
    _source: PLACE_FIELDS,
    suggest: {
      [SUGGESTER]: {
        prefix,
        completion: {
          field: 'suggest',
          size: entriesAsked(limit),
          ...(fuzziness > 0 ? { fuzzy: { fuzziness, prefix_length: 1, transpositions: true } } : {}),
        },
      },
    },
  };
}

/**
 * Whether a place completes a text that ends with a space, whose last word is then whole: one of its
 * entries, cut to as many words as were typed, is the typed words within their typo budget. The
 * suggester's fuzzy prefix may spend an edit on that space ("brook " is one edit from "brookl…").
 */
export function endsWordOf(place: Pick<Place, 'label'>, prefix: string): boolean {
  const typed = prefix.trim();
  const words = typed.split(' ').length;
  const term: QueryTerm = { word: typed, stem: typed, fuzziness: typoBudget(typed.replace(/\s+/g, '')), prefix: false };
  return completionInputs(place.label).some((input) => {
    const cut = input.split(' ');
    return cut.length >= words && withinFuzziness(cut.slice(0, words).join(' '), term);
  });
}

const RANK = new Map<string, number>(PLACE_TYPES.map((t, i) => [t, i]));

/**
 * The answer's places: by score (a market's weight above a city's…, an exact prefix above a typo), then
 * kind and label, each place once; for text that ends with a space, only the places where a word ends there.
 */
export function readSuggestions(res: { suggest?: Record<string, unknown> }, limit: number, prefix = ''): PlaceSuggestion[] {
  const entries = (res.suggest?.[SUGGESTER] ?? []) as Array<{ options?: Array<{ _score?: number; _source?: Place }> }>;
  const ended = prefix.endsWith(' ');
  const scored = entries
    .flatMap((e) => e.options ?? [])
    .flatMap((o) => (o._source && (!ended || endsWordOf(o._source, prefix)) ? [{ score: o._score ?? 0, place: o._source }] : []))
    .sort((a, b) => b.score - a.score || (RANK.get(a.place.type) ?? 0) - (RANK.get(b.place.type) ?? 0) || a.place.label.localeCompare(b.place.label));
  const seen = new Set<string>();
  const out: PlaceSuggestion[] = [];
  for (const { place } of scored) {
    const id = placeId(place);
    if (seen.has(id)) continue;
    seen.add(id);
    const { type, slug, label, market, search } = place;
    out.push({ type, slug, label, market, search });
    if (out.length === limit) break;
  }
  return out;
}

export type PlacesDeps = Pick<Deps, 'es' | 'config' | 'esNodes' | 'placeAnswers'>;

/**
 * The places completing `typed`, read from the places alias (one shard), or kept from the same
 * question under the current index generation: what is asked is its folded text and the limit
 * ("Cambr" and "cambr" are one question), and the set of places moves only with the generation.
 */
export function suggestPlaces(deps: PlacesDeps, typed: string, limit: number, signal?: AbortSignal): Promise<PlacesAnswer> {
  const prefix = foldedTyping(typed);
  return deps.placeAnswers.answer(`${limit}:${prefix}`, async () => {
    const t = esTransport(deps.es, deps.config.placesAlias, { nodes: deps.esNodes, signal });
    return { suggestions: readSuggestions((await t.search(suggestBody(prefix, limit))) as { suggest?: Record<string, unknown> }, limit, prefix) };
  });
}

/** The bytes a kept answer holds, as the kept answers' bound counts them (about two per character of its JSON). */
export const placesAnswerBytes = (a: PlacesAnswer): number => 2 * JSON.stringify(a).length;
