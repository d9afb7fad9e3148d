/**
 * A word search's Elasticsearch clause, from q's plan (query-plan.ts): every part must match, a part
 * by any of its alternatives, a one-word alternative by its stem in any tier's stems field, by its
 * folded word within its typo budget in the `any` words field (every text's folded words: Lucene's
 * fuzzy query, first letter fixed, a transposition one edit), or, for the last word of q, as the start
 * of a word there; a phrase alternative (a synonym's "fitness center") as a phrase of stems. The
 * highlighter (matched.ts) marks words by the same rules. Each tier's stems field carries its boost
 * (home-texts.ts), so in a scoring context a home whose building's name holds the words ranks above
 * one whose description does; the name's words are asked again (typo, prefix) at the name's boost, so a
 * name spelled with a typo or typed in part ranks as a name. With the index's vocabulary (the words
 * its documents hold) a typo or prefix word is asked for as the words it stands for, exactly (`terms`);
 * without one (a run is writing), as Elasticsearch's fuzzy and prefix clauses, one for every text and one
 * for the name: each costs Elasticsearch an automaton per word.
 */
import type { estypes } from '@elastic/elasticsearch';
import { TEXT_TIERS, TIERS } from '../../kernel/text/home-texts';
import type { QueryPart, QueryTerm } from '../../kernel/text/query-plan';
import type { ExpandedTerm } from '../../kernel/text/vocabulary';

type Query = estypes.QueryDslQueryContainer;

/** Terms a fuzzy word may stand for in one shard: more than a misspelling ever has in this vocabulary. */
const MAX_EXPANSIONS = 100;
/** What a match found only in the `any` words (a typo or a prefix outside the name) adds: the lowest tier's boost. */
const ANY_BOOST = Math.min(...TIERS.map((t) => TEXT_TIERS[t].boost));

const STEMS_FIELDS = TIERS.map((t) => `text.${t}.stems^${TEXT_TIERS[t].boost}`);

function fuzzy(field: string, term: QueryTerm, boost: number): Query {
  return {
    fuzzy: {
      [field]: { value: term.word, fuzziness: term.fuzziness, prefix_length: 1, transpositions: true, max_expansions: MAX_EXPANSIONS, boost },
    },
  };
}

function termClause(term: ExpandedTerm): Query {
  const should: Query[] = [{ multi_match: { query: term.stem, fields: STEMS_FIELDS, type: 'best_fields' } }];
  if (term.expanded !== undefined) {
    // The words it stands for, as the vocabulary has them (../../kernel/text/vocabulary.ts): asked for exactly.
    if (term.expanded.length > 0) {
      should.push(
        { terms: { 'text.any.words': [...term.expanded], boost: ANY_BOOST } },
        { terms: { 'text.name.words': [...term.expanded], boost: TEXT_TIERS.name.boost } },
      );
    }
    return should.length === 1 ? should[0] : { bool: { should, minimum_should_match: 1 } };
  }
  if (term.fuzziness > 0) should.push(fuzzy('text.any.words', term, ANY_BOOST), fuzzy('text.name.words', term, TEXT_TIERS.name.boost));
  if (term.prefix) {
    should.push(
      { prefix: { 'text.any.words': { value: term.word, boost: ANY_BOOST } } },
      { prefix: { 'text.name.words': { value: term.word, boost: TEXT_TIERS.name.boost } } },
    );
  }
  return should.length === 1 ? should[0] : { bool: { should, minimum_should_match: 1 } };
}

function alternativeClause(terms: readonly QueryTerm[]): Query {
  if (terms.length === 1) return termClause(terms[0]);
  return { multi_match: { query: terms.map((t) => t.stem).join(' '), fields: STEMS_FIELDS, type: 'phrase' } };
}

/** The clause every result of q matches; scored when it stands in a `must`, exact either way. */
export function textClause(plan: readonly QueryPart[]): Query {
  const parts = plan.map((p): Query =>
    p.alternatives.length === 1 ? alternativeClause(p.alternatives[0]) : { bool: { should: p.alternatives.map(alternativeClause), minimum_should_match: 1 } },
  );
  return { bool: { must: parts } };
}
