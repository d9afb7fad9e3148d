/**
 * What a word search's q asks, analysed: the parts that must all match (AND), each a choice of
 * alternatives, each alternative a sequence of terms that must all match. The search sends one
 * clause per part and the highlighter (matched.ts) marks by the same plan, so both read q alike.
 *
 * q is cut into words by words.ts: every character that is not a letter or a digit, Elasticsearch's
 * query syntax included (AND, :, *, ", (, \), is a separator, and a word such as "AND" is a plain
 * word to find. Nothing here parses query syntax, and no string makes queryPlan throw.
 *
 * Reading left to right, a run of words of q whose stems spell a phrase of a synonym group
 * (synonyms.ts) becomes one part whose alternatives are every phrase of that group; at each
 * position the phrase of the most words wins ("washer dryer in unit" before "washer dryer"). Every
 * other word is a part of its own, kept whatever its length: the user typed it.
 *
 * A term matches a word of a text by stem, by its folded word within its typo budget, or, for a
 * prefix term, as the start of the word (matched.ts, wordMatches). The typo budget of a word of q
 * counts the letters and digits typed: under 5 none, 5 to 8 one, 9 and more two, as Meilisearch and
 * Typesense allow; a word of digits only gets none, since a number one digit off is another number
 * (a street number, a year). Terms of a synonym group's phrases get none: they are written right.
 *
 * The last word of q also matches as a prefix, as the user may still be typing it ("cowor" finds
 * "Coworking"), but only when it is a plain word. A synonym part at the end of q has no prefix term:
 * its words spelled a whole phrase, and a prefix on its short phrases would find noise rather than
 * what was meant ("ac" is the start of "access" and "accent"). The stems still match other endings
 * ("pools" finds "pool"). The same part twice in q is sent once.
 */
import { SYNONYMS, stemsKey, type SynonymIndex } from './synonyms';
import { stemOf, typedLength, wordsOf } from './words';

export interface QueryTerm {
  /** The word folded as typed (words.ts, foldWord), or a synonym phrase's word. */
  word: string;
  stem: string;
  /** Edits (Damerau-Levenshtein, first letter fixed) allowed between `word` and a word of the text. */
  fuzziness: 0 | 1 | 2;
  /** The last word of q: `word` also matches as the start of a word of the text. */
  prefix: boolean;
}

/** One requirement of q: any of its alternatives (a plain word: one alternative of one term; a synonym group: each of its phrases, each phrase a sequence of terms that must all match). */
export interface QueryPart {
  /** The words of q this part stands for, as q spells them. */
  text: string;
  alternatives: QueryTerm[][];
}

/** The typo budget of a word of q, from the word as typed: by its count of letters and digits, none for a number. */
export function typoBudget(typed: string): 0 | 1 | 2 {
  if (!/\p{L}/u.test(typed)) return 0;
  const n = typedLength(typed);
  return n < 5 ? 0 : n < 9 ? 1 : 2;
}

/** q analysed: every part must match (AND). Throws nothing for any string; a q with no words gives []. */
export function queryPlan(q: string, synonyms: SynonymIndex = SYNONYMS): QueryPart[] {
  const words = wordsOf(q);
  const stems = words.map((w) => stemOf(w.word));
  const parts: QueryPart[] = [];
  const seen = new Set<string>();
  const add = (part: QueryPart): void => {
    // The same requirement twice ("pool pool", "gym fitness center") asks nothing more: send it once.
    const key = JSON.stringify(part.alternatives);
    if (!seen.has(key)) parts.push(part);
    seen.add(key);
  };
  let i = 0;
  while (i < words.length) {
    let length = Math.min(synonyms.longest, words.length - i);
    while (length > 0 && !synonyms.byStems.has(stemsKey(stems.slice(i, i + length)))) length -= 1;
    const group = length > 0 ? synonyms.byStems.get(stemsKey(stems.slice(i, i + length))) : undefined;
    if (group !== undefined) {
      add({
        text: q.slice(words[i].start, words[i + length - 1].end),
        alternatives: group.phrases.map((p) => p.words.map((word, k) => ({ word, stem: p.stems[k], fuzziness: 0, prefix: false }))),
      });
      i += length;
    } else {
      const typed = q.slice(words[i].start, words[i].end);
      add({ text: typed, alternatives: [[{ word: words[i].word, stem: stems[i], fuzziness: typoBudget(typed), prefix: i === words.length - 1 }]] });
      i += 1;
    }
  }
  return parts;
}
