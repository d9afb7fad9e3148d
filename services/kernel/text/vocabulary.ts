/**
 * The folded words the index holds (every text's `any` words), and what a word of q stands for among
 * them: the words within its typo budget and, for the last word, the words it starts. The search then
 * asks Elasticsearch for those words exactly (a `terms` clause) instead of a fuzzy or prefix clause,
 * which costs Elasticsearch an automaton per word and field. The rule is the highlighter's own
 * (matched.ts, withinFuzziness), so the homes found and the words marked agree by construction.
 *
 * A vocabulary may hold more words than the index (a word of a home since removed): a word no home has
 * finds nothing. It must never hold fewer; the indexer writes the words before the documents that
 * hold them are searched (../store/vocabulary-store.ts).
 */
import { withinFuzziness } from './matched';
import type { QueryPart, QueryTerm } from './query-plan';

/** Words a term may stand for before its clause is left to Elasticsearch (a prefix of one or two letters reaches thousands). */
export const MAX_EXPANSIONS = 500;

/** Whether a string is all in the Basic Multilingual Plane: its code units are its code points. */
const inBmp = (s: string): boolean => !/[\uD800-\uDFFF]/.test(s);

/**
 * withinFuzziness (matched.ts) for two BMP strings of the same first letter, on their code units, with
 * no allocation but two rows: the optimal-string-alignment distance of the rest is at most `limit`.
 */
function restWithin(a: string, b: string, limit: number, rows: Int32Array[]): boolean {
  const n = a.length - 1;
  const m = b.length - 1;
  if (Math.abs(n - m) > limit) return false;
  let [before, previous, current] = rows;
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let best = i;
    const ai = a.charCodeAt(i);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j);
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 1) && a.charCodeAt(i - 1) === bj) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return false;
    [before, previous, current] = [previous, current, before];
  }
  return previous[m] <= limit;
}

export class Vocabulary {
  /** Sorted, distinct. */
  private readonly words: readonly string[];
  /** The words by their first code unit (a typo keeps the first letter), sorted; and by first code unit and length. */
  private readonly byFirst = new Map<number, string[]>();
  private readonly byFirstAndLength = new Map<string, string[]>();
  /** The words with a code point outside the BMP, checked the slow way. */
  private readonly astral: string[] = [];

  constructor(words: Iterable<string>) {
    this.words = [...new Set(words)].filter((w) => w !== '').sort();
    for (const w of this.words) {
      const first = w.charCodeAt(0);
      let list = this.byFirst.get(first);
      if (list === undefined) this.byFirst.set(first, (list = []));
      list.push(w);
      if (!inBmp(w)) {
        this.astral.push(w);
        continue;
      }
      const key = `${first}:${w.length}`;
      let same = this.byFirstAndLength.get(key);
      if (same === undefined) this.byFirstAndLength.set(key, (same = []));
      same.push(w);
    }
  }

  get size(): number {
    return this.words.length;
  }

  /** The first index of a sorted list at or after `word`. */
  private static lowerBound(list: readonly string[], word: string): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The words within the term's typo budget (matched.ts, withinFuzziness), its own word included. */
  private typos(term: Pick<QueryTerm, 'word' | 'fuzziness'>, found: Set<string>): void {
    const t = { word: term.word, stem: '', fuzziness: term.fuzziness, prefix: false };
    if (term.fuzziness === 0 || term.word.length <= 1 || !inBmp(term.word)) {
      for (const w of [...(this.byFirst.get(term.word.charCodeAt(0)) ?? [])]) if (withinFuzziness(w, t)) found.add(w);
      return;
    }
    const first = term.word.charCodeAt(0);
    const longest = term.word.length + term.fuzziness;
    const rows = [0, 1, 2].map(() => new Int32Array(longest + 1));
    for (let length = Math.max(1, term.word.length - term.fuzziness); length <= longest; length++) {
      for (const w of this.byFirstAndLength.get(`${first}:${length}`) ?? []) if (restWithin(w, term.word, term.fuzziness, rows)) found.add(w);
    }
    for (const w of this.astral) if (withinFuzziness(w, t)) found.add(w);
  }

  /**
   * The words of the vocabulary a term's word stands for, by typo or as a prefix (its exact word
   * included when the vocabulary has it), sorted; null when there are more than MAX_EXPANSIONS (the
   * search then sends Elasticsearch's own clause for that term).
   */
  expand(term: Pick<QueryTerm, 'word' | 'fuzziness' | 'prefix'>): string[] | null {
    const found = new Set<string>();
    const list = this.byFirst.get(term.word.charCodeAt(0)) ?? [];
    if (term.fuzziness > 0) this.typos(term, found);
    else {
      const at = Vocabulary.lowerBound(list, term.word);
      if (list[at] === term.word) found.add(term.word);
    }
    if (term.prefix) {
      for (let i = Vocabulary.lowerBound(list, term.word); i < list.length && list[i].startsWith(term.word); i++) {
        found.add(list[i]);
        if (found.size > MAX_EXPANSIONS) return null;
      }
    }
    return found.size > MAX_EXPANSIONS ? null : [...found].sort();
  }
}

/** A term with what it stands for in the vocabulary, when it was expanded there. */
export type ExpandedTerm = QueryTerm & { expanded?: readonly string[] };

/**
 * The plan with each typo or prefix term expanded in the vocabulary; a term of neither kind, or one
 * that stands for too many words, is left as it is. Without a vocabulary, the plan as it is.
 */
export function expandedPlan(plan: readonly QueryPart[], vocabulary: Vocabulary | null): QueryPart[] {
  if (vocabulary === null) return [...plan];
  return plan.map((part) => ({
    ...part,
    alternatives: part.alternatives.map((terms) =>
      terms.map((term): ExpandedTerm => {
        if (term.fuzziness === 0 && !term.prefix) return term;
        const expanded = vocabulary.expand(term);
        return expanded === null ? term : { ...term, expanded };
      }),
    ),
  }));
}
