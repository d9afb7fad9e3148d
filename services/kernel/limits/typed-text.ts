/**
 * The lengths of what a person types into a search: the words of `q` (the apartment, map and building
 * searches) and the start of a place the place box completes (GET /api/public/suggest). Both are
 * counted once the text is trimmed; the search page holds its box to them before it asks.
 */

/** q: 1 to this many characters. */
export const MAX_Q_CHARS = 200;

/** The place box's typed text: 1 to this many characters. */
export const MAX_SUGGEST_CHARS = 100;
