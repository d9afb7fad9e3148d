/**
 * Which words of a text a query plan (query-plan.ts) matches, and the short HTML fragment a word
 * search shows for them: the words in <mark></mark>, everything else HTML-escaped, so the fragment
 * can be put into a page as it is.
 *
 * A word matches a term by the rules Elasticsearch applies to the clauses the search sends for it:
 * the same stem (a `term` on the stems field), the folded word within the term's fuzziness (a
 * `match` on the words field with `prefix_length: 1` and transpositions: Lucene's FuzzyQuery, which
 * keeps the first character and counts the optimal-string-alignment distance of the rest in code
 * points, and matches only exactly a term of one character), or, for a prefix term, the word
 * starting with the term's word (a `prefix` on the words field). Keeping them equal means a home
 * that a search returns shows why.
 */
import type { QueryPart, QueryTerm } from './query-plan';
import { stemOf, textWords, type TextWord } from './words';

/** The length a fragment aims at, in characters of the text, when the text is longer. */
export const FRAGMENT_CHARS = 100;
/** How much of the text before the first matched word a fragment shows, at most. */
const LEAD_CHARS = 30;
const ELLIPSIS = '…';

/**
 * The optimal-string-alignment distance of two sequences of code points (insertions, deletions,
 * substitutions and swaps of two neighbours cost one each, and no part is edited twice), or
 * `limit + 1` as soon as it is known to exceed `limit`.
 */
function editDistance(a: readonly number[], b: readonly number[], limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1);
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    [before, previous] = [previous, current];
  }
  return previous[b.length];
}

/** Whether a word is within a term's fuzziness the way Lucene's FuzzyQuery with prefix_length 1 decides. */
export function withinFuzziness(word: string, term: QueryTerm): boolean {
  if (term.fuzziness === 0 || term.word.length <= 1) return word === term.word;
  // Different first code units are different first code points: most words of a text end here.
  if (word.charCodeAt(0) !== term.word.charCodeAt(0)) return false;
  const [w, t] = [Array.from(word, (c) => c.codePointAt(0) ?? 0), Array.from(term.word, (c) => c.codePointAt(0) ?? 0)];
  if (w.length === 0 || w[0] !== t[0]) return false;
  return editDistance(w.slice(1), t.slice(1), term.fuzziness) <= term.fuzziness;
}

/**
 * What each term decided for each word it was asked about: a page's texts repeat their words (a
 * building's texts are in each of its units, amenities in many homes), and a term is one object for
 * the whole answer (its plan), so each word is decided once per answer. A word's stem follows from
 * the word, so the word alone is the key.
 */
const decided = new WeakMap<QueryTerm, Map<string, boolean>>();

function decisionsOf(term: QueryTerm): Map<string, boolean> {
  let seen = decided.get(term);
  if (seen === undefined) {
    seen = new Map();
    decided.set(term, seen);
  }
  return seen;
}

function decide(seen: Map<string, boolean>, word: string, stem: string, term: QueryTerm): boolean {
  let match = seen.get(word);
  if (match === undefined) {
    match = word === term.word || stem === term.stem || (term.prefix && word.startsWith(term.word)) || withinFuzziness(word, term);
    seen.set(word, match);
  }
  return match;
}

function matches(word: string, stem: string, term: QueryTerm): boolean {
  return decide(decisionsOf(term), word, stem, term);
}

/** Whether a single folded word matches a term by the rules above (exported for the property tests). */
export function wordMatches(word: string, term: QueryTerm): boolean {
  return matches(word, stemOf(word), term);
}

/**
 * Which words of a text the plan marks: a word matching a one-term alternative, and every word of a
 * run of consecutive words that matches a longer alternative's terms in order.
 */
export function markedWords(words: readonly TextWord[], plan: readonly QueryPart[], stems: readonly string[] = words.map((w) => stemOf(w.word))): boolean[] {
  const marked = words.map(() => false);
  for (const part of plan) {
    for (const terms of part.alternatives) {
      if (terms.length === 0) continue;
      const seen = terms.map(decisionsOf);
      for (let j = 0; j + terms.length <= words.length; j++) {
        let all = true;
        for (let k = 0; k < terms.length && all; k++) all = decide(seen[k], words[j + k].word, stems[j + k], terms[k]);
        if (all) marked.fill(true, j, j + terms.length);
      }
    }
  }
  return marked;
}

/** The text escaped for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/**
 * The span [start, end) of the text a fragment shows: the whole text when it is short; else from a
 * word start at most LEAD_CHARS before the first matched word to the end of the last word that fits
 * in FRAGMENT_CHARS (a first matched word longer than that is shown whole, from its start).
 */
function fragmentSpan(text: string, words: readonly TextWord[], first: number): [number, number] {
  if (text.length <= FRAGMENT_CHARS) return [0, text.length];
  const anchor = words[first];
  if (anchor.end - anchor.start > FRAGMENT_CHARS - LEAD_CHARS) return [anchor.start, anchor.end];
  const startAt = (from: number): number => (from <= 0 ? 0 : (words.find((w) => w.start >= from)?.start ?? anchor.start));
  let start = startAt(anchor.start - LEAD_CHARS);
  if (start + FRAGMENT_CHARS >= text.length) {
    // The fragment reaches the end of the text: spend what is left of its length on words before it.
    start = Math.min(start, startAt(text.length - FRAGMENT_CHARS));
    return [start, text.length];
  }
  let end = anchor.end;
  for (let i = first + 1; i < words.length && words[i].end <= start + FRAGMENT_CHARS; i++) end = words[i].end;
  return [start, end];
}

/** A fragment (about 100 characters, cut at word boundaries, with "…" where cut) of `text` around its first matched words, matched words in <mark></mark>, the rest HTML-escaped; null when no word of the text matches the plan. A word of the text matches a term when its stem equals the term's stem, or its folded word is within the term's fuzziness (Damerau-Levenshtein, same first letter), or (prefix terms) it starts with the term's folded word. Words of a multi-word synonym alternative are marked when the whole phrase appears in order. */
export function matchedFragment(text: string, plan: readonly QueryPart[]): string | null {
  const { words, stems } = textWords(text);
  const marked = markedWords(words, plan, stems);
  const first = marked.indexOf(true);
  if (first < 0) return null;
  const [start, end] = fragmentSpan(text, words, first);
  let html = words.some((w) => w.start < start) ? ELLIPSIS : '';
  let at = start;
  let open = false;
  words.forEach((w, i) => {
    if (w.start < start || w.end > end) return;
    const gap = text.slice(at, w.start);
    // Marked words with only spaces, or one hyphen or slash, between them share one mark:
    // "<mark>air conditioning</mark>", "<mark>Wi-Fi</mark>".
    if (open && !(marked[i] && /^(?:\s*|[-/])$/.test(gap))) {
      html += '</mark>';
      open = false;
    }
    html += escapeHtml(gap);
    if (marked[i] && !open) {
      html += '<mark>';
      open = true;
    }
    html += escapeHtml(text.slice(w.start, w.end));
    at = w.end;
  });
  if (open) html += '</mark>';
  html += escapeHtml(text.slice(at, end));
  return words.some((w) => w.end > end) ? html + ELLIPSIS : html;
}
