/**
 * The synonym groups of word search, read from synonyms.json beside this file and checked when this
 * module loads, so a bad edit to the file fails the first test that imports it rather than a search.
 *
 * The file is a JSON array of groups; a group is an array of phrases that a renter means the same
 * thing by ("gym", "fitness center"). A phrase is analysed like any text (words.ts): punctuation
 * separates words, so "w/d" is the two words "w d" and "washer/dryer" is "washer dryer", and
 * phrases are compared by their stems, so "pets allowed" and "pet allowed" are one phrase. The
 * file is valid when every group has at least two phrases, every phrase has a word, and no phrase
 * (as stems) appears twice in the whole file: a phrase in two groups would make its meaning depend
 * on which group is read first.
 */
import file from './synonyms.json';
import { stemOf, wordsOf } from './words';

/** One phrase of a group, analysed: its folded words and their stems, in order. */
export interface SynonymPhrase {
  /** The phrase as written in the file. */
  text: string;
  words: string[];
  stems: string[];
}

export interface SynonymGroup {
  phrases: SynonymPhrase[];
}

/** The groups, and each phrase's group found by the phrase's stems joined by spaces. */
export interface SynonymIndex {
  groups: SynonymGroup[];
  byStems: ReadonlyMap<string, SynonymGroup>;
  /** The most words of any phrase: how far ahead queryPlan looks for a phrase. */
  longest: number;
}

/** The key of a phrase in `byStems`: its stems joined by single spaces. */
export function stemsKey(stems: readonly string[]): string {
  return stems.join(' ');
}

/** Checks synonym groups (the parsed file) and indexes them; throws one error naming every problem. */
export function synonymIndex(raw: unknown): SynonymIndex {
  if (!Array.isArray(raw)) throw new Error('synonyms: the file must be a JSON array of groups');
  const problems: string[] = [];
  const groups: SynonymGroup[] = [];
  const byStems = new Map<string, SynonymGroup>();
  const firstSeen = new Map<string, { text: string; group: number }>();
  let longest = 0;
  raw.forEach((entry: unknown, g) => {
    if (!Array.isArray(entry) || !entry.every((p): p is string => typeof p === 'string')) {
      problems.push(`group ${g + 1} is not an array of strings`);
      return;
    }
    if (entry.length < 2) problems.push(`group ${g + 1} (${JSON.stringify(entry)}) has fewer than two phrases`);
    const group: SynonymGroup = { phrases: [] };
    for (const text of entry) {
      const words = wordsOf(text).map((w) => w.word);
      if (words.length === 0) {
        problems.push(`group ${g + 1}: phrase ${JSON.stringify(text)} has no word`);
        continue;
      }
      const stems = words.map(stemOf);
      const key = stemsKey(stems);
      const earlier = firstSeen.get(key);
      if (earlier !== undefined) {
        const where = earlier.group === g ? 'this group' : `group ${earlier.group + 1}`;
        problems.push(`group ${g + 1}: phrase ${JSON.stringify(text)} is ${JSON.stringify(earlier.text)} of ${where} again (both are "${key}" as stems)`);
        continue;
      }
      firstSeen.set(key, { text, group: g });
      group.phrases.push({ text, words, stems });
      byStems.set(key, group);
      longest = Math.max(longest, words.length);
    }
    groups.push(group);
  });
  if (problems.length > 0) throw new Error(`synonyms: ${problems.join('; ')}`);
  return { groups, byStems, longest };
}

/** The groups of synonyms.json. */
export const SYNONYMS: SynonymIndex = synonymIndex(file);
