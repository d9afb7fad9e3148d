/**
 * A word search's Elasticsearch clause, from q's plan (query-plan.ts): every part must match, a part
 * by any of its alternatives, a one-word alternative by its stem in any tier's stems field, by its
 * folded word within its typo budget in any tier's words field (Lucene's fuzzy query: first letter
 * fixed, a transposition one edit), or, for the last word of q, as the start of a word; a phrase
 * alternative (a synonym's "fitness center") as a phrase of stems. The highlighter (matched.ts) marks
 * words by the same rules. Each tier's fields carry its boost (home-texts.ts), so in a scoring
 * context a home whose building's name holds the words ranks above one whose description does.
 */
import type { estypes } from '@elastic/elasticsearch';
import { TEXT_TIERS, TIERS } from '../../kernel/text/home-texts';
import type { QueryPart, QueryTerm } from '../../kernel/text/query-plan';

type Query = estypes.QueryDslQueryContainer;

/** Terms a fuzzy word may stand for in one shard: more than a misspelling ever has in this vocabulary. */
const MAX_EXPANSIONS = 100;

const fields = (kind: 'words' | 'stems'): string[] => TIERS.map((t) => `text.${t}.${kind}^${TEXT_TIERS[t].boost}`);

function termClause(term: QueryTerm): Query {
  const should: Query[] = [{ multi_match: { query: term.stem, fields: fields('stems'), type: 'best_fields' } }];
  if (term.fuzziness > 0) {
    should.push({
      multi_match: {
        query: term.word,
        fields: fields('words'),
        type: 'best_fields',
        fuzziness: term.fuzziness,
        prefix_length: 1,
        fuzzy_transpositions: true,
        max_expansions: MAX_EXPANSIONS,
      },
    });
  }
  if (term.prefix) {
    for (const t of TIERS) should.push({ prefix: { [`text.${t}.words`]: { value: term.word, boost: TEXT_TIERS[t].boost } } });
  }
  return should.length === 1 ? should[0] : { bool: { should, minimum_should_match: 1 } };
}

function alternativeClause(terms: readonly QueryTerm[]): Query {
  if (terms.length === 1) return termClause(terms[0]);
  return { multi_match: { query: terms.map((t) => t.stem).join(' '), fields: fields('stems'), type: 'phrase' } };
}

/** The clause every result of q matches; scored when it stands in a `must`, exact either way. */
export function textClause(plan: readonly QueryPart[]): Query {
  const parts = plan.map((p): Query =>
    p.alternatives.length === 1 ? alternativeClause(p.alternatives[0]) : { bool: { should: p.alternatives.map(alternativeClause), minimum_should_match: 1 } },
  );
  return { bool: { must: parts } };
}
