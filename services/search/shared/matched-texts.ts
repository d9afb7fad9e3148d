/**
 * An answer's `matched`: for each home of a page found with q, the fields whose text holds q's words,
 * each with a fragment that marks them (matched.ts). The texts as written are read from the page's
 * documents (`match_card`, a binary doc value: no stored `_source` is opened) in one request for the
 * page, in the shards the search read, and marked in Node by the rules the search matched with.
 */
import type { estypes } from '@elastic/elasticsearch';
import { LRUCache } from 'lru-cache';
import { matchedFragment } from '../../kernel/text/matched';
import { decodeMatchCard } from '../../kernel/text/home-texts';
import type { QueryPart } from '../../kernel/text/query-plan';
import type { SearchTransport } from './search-transport';

/** Plans whose fragments are kept, and texts kept per plan (answerFragments): at most ~130,000 texts and fragments, tens of MB. */
const PLANS_KEPT = 64;
const TEXTS_KEPT_PER_PLAN = 2_048;

/** One field of a home that q matched, and its fragment with the matched words in <mark></mark>. */
export interface MatchedField {
  field: string;
  text: string;
}

/**
 * The fields of `texts` that hold the plan's words, each field once (its first text that does), in the
 * texts' order. `fragmentOf` marks one text (an answer's: answerFragments).
 */
export function matchedFields(
  texts: ReadonlyArray<{ field: string; text: string }>,
  plan: readonly QueryPart[],
  fragmentOf: (text: string) => string | null = (text) => matchedFragment(text, plan),
): MatchedField[] {
  const out: MatchedField[] = [];
  const seen = new Set<string>();
  for (const t of texts) {
    if (seen.has(t.field)) continue;
    const fragment = fragmentOf(t.text);
    if (fragment === null) continue;
    seen.add(t.field);
    out.push({ field: t.field, text: fragment });
  }
  return out;
}

/**
 * Fragments already made, by what decides them: the plan's terms (word, stem, typo budget, prefix)
 * and the text. A fragment is a pure function of the two, and both repeat across answers (a building's
 * texts in each of its units, and in every search that finds them; the words people search with), so
 * a text is marked for a plan once while its fragment is kept, not once per answer. Bounded: the
 * plans last used, and the texts of each (a plan's texts are forgotten together when it has too many).
 */
const kept = new LRUCache<string, Map<string, string | null>>({ max: PLANS_KEPT });

/** What marking depends on in a plan: its parts' alternatives' terms (a term's expansion only widens what the search asks). */
function planKey(plan: readonly QueryPart[]): string {
  return JSON.stringify(plan.map((p) => p.alternatives.map((terms) => terms.map((t) => [t.word, t.stem, t.fuzziness, t.prefix]))));
}

/** How one answer marks a text: each text once per plan while kept (the units of a building share their building's texts). */
function answerFragments(plan: readonly QueryPart[]): (text: string) => string | null {
  const key = planKey(plan);
  let fragments = kept.get(key);
  if (fragments === undefined) {
    fragments = new Map();
    kept.set(key, fragments);
  }
  const made = fragments;
  return (text) => {
    let fragment = made.get(text);
    if (fragment === undefined) {
      fragment = matchedFragment(text, plan);
      if (made.size >= TEXTS_KEPT_PER_PLAN) made.clear();
      made.set(text, fragment);
    }
    return fragment;
  };
}

/** Each home's matched fields, by home id, from the texts its page's hits carried (`match_card`). */
export function matchedFromCards(cards: ReadonlyArray<readonly [id: string, card: string]>, plan: readonly QueryPart[]): Map<string, MatchedField[]> {
  const fragments = answerFragments(plan);
  return new Map(cards.map(([id, card]) => [id, matchedFields(decodeMatchCard(card), plan, fragments)]));
}

/** Each home's matched fields, by home id, read for the ids of one page. */
export async function matchedByHome(
  t: Pick<SearchTransport, 'search'>,
  ids: readonly string[],
  plan: readonly QueryPart[],
): Promise<Map<string, MatchedField[]>> {
  const out = new Map<string, MatchedField[]>();
  if (ids.length === 0) return out;
  const body: estypes.SearchRequest = {
    size: ids.length,
    track_total_hits: false,
    query: { ids: { values: [...ids] } },
    stored_fields: ['_none_'],
    docvalue_fields: ['home_id', 'match_card'],
  };
  const res = await t.search(body);
  const fragments = answerFragments(plan);
  for (const hit of res.hits.hits) {
    const [id] = (hit.fields?.home_id ?? []) as unknown[];
    const [card] = (hit.fields?.match_card ?? []) as unknown[];
    if (typeof id === 'string') out.set(id, matchedFields(typeof card === 'string' ? decodeMatchCard(card) : [], plan, fragments));
  }
  return out;
}
