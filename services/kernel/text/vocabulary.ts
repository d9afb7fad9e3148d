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

export class Vocabulary {
  /** Sorted, distinct. */
  private readonly words: readonly string[];
  /** The words by their first code unit, sorted (a typo keeps the first letter). */
  private readonly byFirst = new Map<number, string[]>();

  constructor(words: Iterable<string>) {
    this.words = [...new Set(words)].filter((w) => w !== '').sort();
    for (const w of this.words) {
      const first = w.charCodeAt(0);
      let list = this.byFirst.get(first);
      if (list === undefined) this.byFirst.set(first, (list = []));
      list.push(w);
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

  /**
   * The words of the vocabulary a term's word stands for, by typo or as a prefix (its exact word
   * included when the vocabulary has it), sorted; null when there are more than MAX_EXPANSIONS (the
   * search then sends Elasticsearch's own clause for that term).
   */
  expand(term: Pick<QueryTerm, 'word' | 'fuzziness' | 'prefix'>): string[] | null {
    const found = new Set<string>();
    const list = this.byFirst.get(term.word.charCodeAt(0)) ?? [];
    if (term.fuzziness > 0) {
      const t = { ...term, stem: '' };
      for (const w of list) if (withinFuzziness(w, t)) found.add(w);
    } else if (Vocabulary.lowerBound(list, term.word) < list.length && list[Vocabulary.lowerBound(list, term.word)] === term.word) {
      found.add(term.word);
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
