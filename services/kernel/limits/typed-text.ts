/**
 * The lengths of what a person types into a search: the words of `q` (the apartment, map and building
 * searches) and the start of a place the place box completes (GET /api/public/suggest). Both are
 * counted once the text is trimmed, in characters (code points, as JSON Schema's maxLength counts them:
 * an emoji or a letter outside the Basic Multilingual Plane is one); the search page holds its box to
 * them before it asks.
 */

/** q: 1 to this many characters. */
export const MAX_Q_CHARS = 200;

/** The place box's typed text: 1 to this many characters. */
export const MAX_SUGGEST_CHARS = 100;

/**
 * What the schemas read of either text before it is trimmed: spaces around the words are the client's
 * to send (a pasted text, a padded form field), the words alone are held to their limit.
 */
export const TYPED_TEXT_BOUND = 2_000;

/** A text's length in characters (code points). */
export function charCount(text: string): number {
  return [...text].length;
}
