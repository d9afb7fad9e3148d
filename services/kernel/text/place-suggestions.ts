/**
 * What the place box completes (GET /api/public/suggest): the market, display city, neighbourhood and
 * building of each bookable home, written into the index's `suggest` completion field, one entry per
 * kind of place (its `type` context). A name is written folded (lowercase, accents removed) and from
 * each of its words on, so "back b" and "bay" both reach "Back Bay"; the service folds what is typed
 * the same way. The weight ranks the kinds when a prefix reaches several: a market before a city, a
 * city before a neighbourhood, a neighbourhood before a building.
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

/** The inputs of one name: the folded name from each of its first four words on. */
function inputsOf(name: string): string[] {
  const words = foldedName(name)
    .split(' ')
    .filter((w) => w !== '');
  return [...new Set(words.slice(0, 4).map((_, i) => words.slice(i).join(' ')))].filter((i) => i !== '');
}

export interface SuggestEntry {
  input: string[];
  weight: number;
  contexts: { type: string[] };
}

/** The completion entries of a home's places; none for a home search cannot return. */
export function placeSuggestions(names: Partial<Record<PlaceType, string | null | undefined>>, bookable: boolean): SuggestEntry[] {
  if (!bookable) return [];
  return PLACE_TYPES.flatMap((type) => {
    const name = names[type];
    const input = typeof name === 'string' ? inputsOf(name) : [];
    return input.length === 0 ? [] : [{ input, weight: WEIGHTS[type], contexts: { type: [type] } }];
  });
}
