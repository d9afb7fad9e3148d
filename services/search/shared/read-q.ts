/**
 * The `q` argument of the apartment, map and building searches: its schema and its reading. q is
 * 1 to 200 characters once trimmed and must hold a word (a letter or a digit); anything else is
 * refused with the error object, never searched as everything or as nothing.
 */
import type { Deps } from '../../deps';
import { expandedPlan } from '../../kernel/text/vocabulary';
import { badRequest } from '../../kernel/errors';
import { charCount, MAX_Q_CHARS, TYPED_TEXT_BOUND } from '../../kernel/limits/typed-text';
import { queryPlan, type QueryPart } from '../../kernel/text/query-plan';

export const qProperty = {
  q: {
    type: 'string',
    // The schema's bound leaves room for spaces around; the trimmed text is held to MAX_Q_CHARS.
    maxLength: TYPED_TEXT_BOUND,
    description:
      `Words to find (1-${MAX_Q_CHARS} characters): every word must match the home's title, amenities, building name, address, ` +
      'amenities or description, its neighborhood, city or market, or its pet policy ("pets allowed"), allowing plurals, typos (one from 5 letters, two from 9) ' +
      'and synonyms ("w/d", "gym", "ac", "doorman"); the last word also matches as a prefix. Use it for what no filter says ' +
      '("coworking", "rooftop", a building\'s name); prefer the filters (pool, gym, in_unit_laundry, pets...) when one exists. ' +
      'Without sort_by the best matches come first (sort_by relevance); each result then carries matched, the fields that matched ' +
      'with the words marked <mark>…</mark>.',
  },
} as const;

/** q's plan, or null when the arguments have no q; a q that is empty, too long or without a word is refused. */
export function readQ(q: string | undefined): QueryPart[] | null {
  if (q === undefined) return null;
  const text = q.trim();
  if (text === '') throw badRequest('invalid_parameters', 'q is empty: give the words to find, or leave q out.');
  const chars = charCount(text);
  if (chars > MAX_Q_CHARS) throw badRequest('invalid_parameters', `q is ${chars} characters: at most ${MAX_Q_CHARS}.`);
  const plan = queryPlan(text);
  if (plan.length === 0) throw badRequest('invalid_parameters', 'q has no word to find (letters or digits).');
  return plan;
}

/** q's plan to search with at once, and what settles it: null when it stands, else the plan to search again with. */
export interface SpeculativeText {
  text: QueryPart[] | null;
  settled?: Promise<QueryPart[] | null>;
}

/**
 * q's plan (readQ) with its typo and prefix words expanded in the vocabulary of the index generation
 * (../../kernel/text/vocabulary.ts), so the search asks for those words exactly. The vocabulary is the
 * one of the newest generation read, without waiting for this request's own read of the generation:
 * the search is sent with it while the generation is read beside it, and stands when that read finds
 * the same vocabulary (the generation did not move: the answer is the one the request's own generation
 * gives); else `settled` gives the plan to search again with. With nothing read yet, the generation is
 * read first.
 */
export async function speculativePlan(deps: Pick<Deps, 'vocabulary'>, plan: QueryPart[] | null): Promise<SpeculativeText> {
  if (plan === null) return { text: null };
  const guess = deps.vocabulary.latest();
  if (guess === undefined) return { text: expandedPlan(plan, await deps.vocabulary.current()) };
  const settled = deps.vocabulary.current().then(
    (vocabulary) => (vocabulary === guess.vocabulary ? null : expandedPlan(plan, vocabulary)),
    () => expandedPlan(plan, null),
  );
  return { text: expandedPlan(plan, guess.vocabulary), settled };
}

/**
 * A search sent with a speculative plan (speculativePlan), its answer once the plan settled: the
 * answer as sent when the plan stands, else the search sent again with the settled plan.
 */
export async function searchedOnSettledText<P extends { text?: readonly QueryPart[] | null; textSettled?: Promise<QueryPart[] | null> }, T>(
  p: P,
  search: (p: P) => Promise<T>,
): Promise<T> {
  if (p.textSettled === undefined) return search(p);
  const [answer, settled] = await Promise.all([search(p), p.textSettled]);
  return settled === null ? answer : search({ ...p, text: settled, textSettled: undefined });
}
